/**
 * The string formats JSON Schema's `format` keyword names, checked cheaply.
 *
 * @module
 */

/**
 * The host of `http://<text>/` as the URL standard reads it: IPv4 and IPv6
 * addresses come out in their canonical form, so an address equal to its
 * host (IPv4), or one that parses at all (IPv6), is well formed.
 *
 * @param text - a host.
 * @returns the parsed host, or `undefined` when it is none.
 */
function parseHost(text: string): string | undefined {
  try {
    return new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Whether a string is an RFC 3339 full-date with a day its month has (29 February in leap years only).
 *
 * @param value - the string.
 * @returns the check.
 */
function isDate(value: string): boolean {
  const time = Date.parse(value);
  // Date.parse reads 2023-02-29 as 1 March: the round trip catches a day the month lacks.
  return /^\d{4}-\d\d-\d\d$/u.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** An RFC 3339 full-time: `hh:mm:ss`, an optional fraction, then `Z` or an offset. */
const fullTime = /^(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/iu;

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
      return fullTime.test(value);
    case "date-time":
      return isDate(value.slice(0, 10)) && /^t$/iu.test(value.charAt(10)) && fullTime.test(value.slice(11));
    case "email":
      return /^[^\s@]+@[^\s@]+$/u.test(value);
    case "uri":
      return /^[a-z][a-z\d+.-]*:\S*$/iu.test(value);
    case "uuid":
      return /^[\da-f]{8}-(?:[\da-f]{4}-){3}[\da-f]{12}$/iu.test(value);
    case "ipv4":
      return /^\d+(?:\.\d+){3}$/u.test(value) && parseHost(value) === value;
    case "ipv6":
      return /^[\da-f:.]+$/iu.test(value) && parseHost(`[${value}]`) !== undefined;
    case "hostname":
      return (
        value.length <= 253 && value.split(".").every((label) => /^[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/iu.test(label))
      );
  }
  return true;
}
