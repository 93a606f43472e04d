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
const fullTime = /^(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/u;

/**
 * Whether a string is an RFC 3339 full-time, a leap second only where one
 * can fall: at 23:59:60 UTC, once the offset is taken off.
 *
 * @param value - the string.
 * @returns the check.
 */
function isTime(value: string): boolean {
  // The minute of a leap second, read on 1 January 2000 (a whole number of days after 1970), must be 23:59 UTC.
  return (
    fullTime.test(value) &&
    (!value.includes(":60") ||
      Date.parse(`2000-01-01T${value.replace(/:60(?:\.\d+)?/u, ":00").toUpperCase()}`) % 864e5 === 8634e4)
  );
}

/**
 * Whether a string is an RFC 1123 host name: dot-separated labels of ASCII
 * letters, digits and inner hyphens, at most 63 characters each and 253 in all.
 *
 * @param value - the string.
 * @returns the check.
 */
function isHostname(value: string): boolean {
  // No case-insensitive flag: with it, the Kelvin sign and the long s would pass for k and s.
  return (
    value.length <= 253 &&
    value.split(".").every((label) => /^[A-Za-z\d](?:[A-Za-z\d-]{0,61}[A-Za-z\d])?$/u.test(label))
  );
}

/**
 * An absolute RFC 3986 URI: a scheme, then the characters a URI allows
 * unescaped, percent-escapes and IPv6 or future hosts in brackets, and a fragment after
 * one `#`.
 */
const uri =
  /^[A-Za-z][A-Za-z\d+.-]*:(?:[\w\-.~!$&'()*+,;=:@/?]|%[\dA-Fa-f]{2}|\[(?:[\dA-Fa-f.]*:[\dA-Fa-f:.]*|v[\dA-Fa-f]+\.[\w\-.~!$&'()*+,;=:]+)\])*(?:#(?:[\w\-.~!$&'()*+,;=:@/?]|%[\dA-Fa-f]{2})*)?$/u;

/**
 * Whether a string is an RFC 5321 mailbox: a local part, `@`, then a host
 * name or an address literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`).
 *
 * @param value - the string.
 * @returns the check.
 */
function isEmail(value: string): boolean {
  const [, local = "", literal, ipv6, address = ""] = /^(.+)@(\[(IPv6:)?(.*)\]$)?/su.exec(value) ?? [];
  const domain = value.slice(local.length + 1);
  return (
    /^(?:[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*|"(?:[ !#-[\]-~]|\\[ -~])*")$/u.test(local) &&
    (literal === undefined ? isHostname(domain) : matchesStringFormat(ipv6 === undefined ? "ipv4" : "ipv6", address))
  );
}

/**
 * Whether a string has the format a JSON Schema `format` names: `date`,
 * `time`, `date-time` (RFC 3339, with `T` or a space between date and time,
 * a leap second at 23:59:60 UTC only),
 * `email` (RFC 5321, ASCII), `uri` (RFC 3986, absolute), `uuid`, `ipv4`,
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
    case "date-time":
      // RFC 3339 lets applications write a space for the T, as models often do.
      return isDate(value.slice(0, 10)) && /^[Tt ]$/u.test(value.charAt(10)) && isTime(value.slice(11));
    case "email":
      return isEmail(value);
    case "uri":
      return uri.test(value);
    case "uuid":
      return /^[\da-f]{8}-(?:[\da-f]{4}-){3}[\da-f]{12}$/iu.test(value);
    case "ipv4":
      return /^\d+(?:\.\d+){3}$/u.test(value) && parseHost(value) === value;
    case "ipv6":
      return /^[\da-f:.]+$/iu.test(value) && parseHost(`[${value}]`) !== undefined;
    case "hostname":
      return isHostname(value);
  }
  return true;
}
