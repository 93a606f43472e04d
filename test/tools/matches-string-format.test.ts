/**
 * String formats: each accepts the forms its RFC allows and refuses near misses; unknown formats pass.
 */
import { describe, expect, it } from "vitest";
import { matchesStringFormat } from "../../src/tools/matches-string-format.ts";

const cases: [string, string[], string[]][] = [
  [
    "date",
    ["2024-02-29", "2000-02-29", "2023-12-31", "0001-01-01", "2023-04-30"],
    [
      "2023-02-29",
      "1900-02-29",
      "2023-04-31",
      "2023-13-01",
      "2023-00-10",
      "2023-01-00",
      "2023-1-01",
      "20230101",
      "2023-01-01T00:00:00Z",
      "",
    ],
  ],
  [
    "time",
    [
      "23:59:59Z",
      "00:00:00z",
      "12:30:15.123+02:00",
      "08:00:00-05:30",
      "23:59:60Z",
      "01:29:60+01:30",
      "15:59:60-08:00",
      "00:00:60+00:01",
    ],
    [
      "12:00:60Z",
      "22:59:60Z",
      "23:59:60+01:00",
      "00:00:60-00:01",
      "24:00:00Z",
      "12:60:00Z",
      "12:30:61Z",
      "12:30:15",
      "12:30Z",
      "12:30:15+2:00",
      "12:30:15+24:00",
      "1:02:03Z",
    ],
  ],
  [
    "date-time",
    [
      "2024-02-29T12:00:00Z",
      "2024-01-01t00:00:00.5+01:00",
      "1985-04-12T23:20:50.52Z",
      "1998-12-31T23:59:60Z",
      "2024-01-01 12:00:00Z",
    ],
    [
      "1998-12-31T22:59:60Z",
      "2023-02-29T12:00:00Z",
      "2024-01-01  12:00:00Z",
      "2024-01-01_12:00:00Z",
      "2024-01-01T12:00:00",
      "2024-01-01T25:00:00Z",
      "2024-01-01",
    ],
  ],
  [
    "email",
    [
      "joe@example.com",
      "a.b+tag@sub.example.org",
      "user@localhost",
      "~&'*@x.io",
      '"joe bloggs"@example.com',
      "joe@[127.0.0.1]",
      "joe@[IPv6:::1]",
    ],
    [
      "joe",
      "@example.com",
      "joe@",
      "jo e@example.com",
      "a@b@c",
      ".joe@example.com",
      "joe.@example.com",
      "jo..e@example.com",
      "joe@example..com",
      "joe@-example.com",
      "joe@example.com.",
      "jo(e)@example.com",
      "mailto:joe@example.com",
      "jöe@example.com",
      "joe@[300.0.0.1]",
    ],
  ],
  [
    "uri",
    [
      "https://example.com/a?b#c",
      "urn:isbn:0451450523",
      "mailto:joe@example.com",
      "http://[::1]:8080/a%20b",
      "http://user:pw@host/p;q=1?x=1&y=$",
      "tag:x.org,2024:a",
      "http://[v1.fe80::a+en1]/",
    ],
    [
      "example.com",
      "/relative/path",
      "1http://x",
      "http://exa mple.com",
      "",
      "http://exa<mple.com/",
      "http://example.com/%zz",
      "http://example.com/ü",
      "http://example.com/#a#b",
      "http://[1.2.3.4]/",
      "http://example.com/a\\b",
      "http://example.com/{id}",
      "\u212A:x",
      'http://example.com/"',
    ],
  ],
  [
    "uuid",
    [
      "123e4567-e89b-12d3-a456-426614174000",
      "00000000-0000-0000-0000-000000000000",
      "A987FBC9-4BED-3078-CF07-9141BA07C9F3",
    ],
    ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "g23e4567-e89b-12d3-a456-426614174000"],
  ],
  [
    "ipv4",
    ["127.0.0.1", "0.0.0.0", "255.255.255.255"],
    ["256.0.0.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.4.", "a.b.c.d", "0x7f.0.0.1"],
  ],
  [
    "ipv6",
    ["::1", "::", "1:2:3:4:5:6:7:8", "fe80::1", "::ffff:192.168.0.1", "1::", "2001:DB8::8:800:200C:417A"],
    [
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::",
      ":1::",
      "1.2.3.4::",
      "::1%eth0",
      "[::1]",
      "::ffff:256.1.1.1",
      "",
      "g::1",
    ],
  ],
  [
    "hostname",
    ["example.com", "a", "xn--bcher-kva.example", "my-host.local", `${"a".repeat(63)}.com`],
    [
      "-example.com",
      "example-.com",
      "exa_mple.com",
      "example..com",
      "\u212Aelvin.com",
      "\u017Fhort.com",
      `${"a".repeat(64)}.com`,
      "",
      `${"a.".repeat(127)}ab`,
    ],
  ],
];

describe("matchesStringFormat", () => {
  for (const [format, valid, invalid] of cases) {
    it(`${format}: accepts well-formed strings and refuses near misses`, () => {
      for (const value of valid) expect(matchesStringFormat(format, value), value).toBe(true);
      for (const value of invalid) expect(matchesStringFormat(format, value), value).toBe(false);
    });
  }

  it("passes formats it does not check", () => {
    for (const format of ["color", "duration", "regex", ""]) expect(matchesStringFormat(format, "?")).toBe(true);
  });
});
