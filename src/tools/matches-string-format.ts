/**
 * The string formats JSON Schema's `format` keyword names, checked cheaply.
 *
 * @module
 */

/**
 * Whether a string is an IPv4 address in dotted-decimal form (four numbers up to 255, no leading zeros).
 *
 * @param value - the string.
 * @returns the check.
 */
function isIpv4(value: string): boolean {
  const parts = value.split(".");
  return parts.length === 4 && parts.every((part) => /^(?:0|[1-9]\d{0,2})$/u.test(part) && Number(part) < 256);
}

/**
 * Whether a string is an IPv6 address (RFC 4291 text form: eight groups of up
 * to four hex digits, one `::` for a run of zero groups, an IPv4 address as
 * the last two groups).
 *
 * @param value - the string.
 * @returns the check.
 */
function isIpv6(value: string): boolean {
  const halves = value.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  let count = groups.length;
  const last = groups.at(-1) ?? "";
  if (last.includes(".")) {
    if (!value.endsWith(last) || !isIpv4(last)) return false;
    groups.pop();
    count++;
  }
  return groups.every((group) => /^[\da-f]{1,4}$/iu.test(group)) && (halves.length === 2 ? count < 8 : count === 8);
}

/**
 * Whether a string is an RFC 3339 full-date with a day its month has (29 February in leap years only).
 *
 * @param value - the string.
 * @returns the check.
 */
function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/u.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : 30 + ((month + Math.floor(month / 8)) % 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/**
 * Whether a string is an RFC 3339 full-time: `hh:mm:ss`, optional fraction, then `Z` or an offset.
 *
 * @param value - the string.
 * @returns the check.
 */
function isTime(value: string): boolean {
  return /^(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/iu.test(value);
}

/**
 * Whether a string has the format a JSON Schema `format` names: `date`,
 * `time`, `date-time` (RFC 3339), `email` (one `@` between non-empty parts,
 * no spaces), `uri` (a scheme, then anything but spaces), `uuid`, `ipv4`,
 * `ipv6` and `hostname` (RFC 1123). Any other format is an annotation and
 * matches.
 *
 * @param format - the format name.
 * @param value - the string.
 * @returns whether the string matches.
 *
 * @example
 * ```ts
 * matchesStringFormat("date", "2024-02-30"); // false
 * matchesStringFormat("color", "red"); // true: not checked
 * ```
 */
export function matchesStringFormat(format: string, value: string): boolean {
  switch (format) {
    case "date":
      return isDate(value);
    case "time":
      return isTime(value);
    case "date-time": {
      const split = value.search(/t/iu);
      return isDate(value.slice(0, split)) && isTime(value.slice(split + 1));
    }
    case "email":
      return /^[^\s@]+@[^\s@]+$/u.test(value);
    case "uri":
      return /^[a-z][a-z\d+.-]*:\S*$/iu.test(value);
    case "uuid":
      return /^[\da-f]{8}-(?:[\da-f]{4}-){3}[\da-f]{12}$/iu.test(value);
    case "ipv4":
      return isIpv4(value);
    case "ipv6":
      return isIpv6(value);
    case "hostname":
      return (
        value.length <= 253 && value.split(".").every((label) => /^[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/iu.test(label))
      );
  }
  return true;
}
