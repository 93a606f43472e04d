/**
 * The repairs users expect of the lenient parser, case by case: each text is
 * read whole, split in two at every offset, and one character at a time, and
 * must give the same value and the same repairs (kind and offset) every time.
 * Strict mode must agree with `JSON.parse` on each text.
 */
import { describe, expect, it } from "vitest";
import { createJsonStreamParser } from "../../src/json/create-json-stream-parser.ts";

interface Reading {
  value: unknown;
  repairs: [string, number][];
}

/** Parses `chunks` in order and ends; the value (or end()'s error) and the repairs' kinds and offsets. */
function parse(chunks: readonly string[]): Reading {
  const parser = createJsonStreamParser();
  let value: unknown;
  try {
    for (const chunk of chunks) parser.write(chunk);
    value = parser.end();
  } catch (error) {
    value = `error: ${(error as Error).message}`;
  }
  return { value, repairs: parser.repairs.map((repair) => [repair.kind, repair.offset]) };
}

/** What strict mode gives: the value, or that it threw. */
function parseStrict(text: string): unknown {
  const parser = createJsonStreamParser({ strict: true });
  try {
    parser.write(text);
    return parser.end();
  } catch {
    return "rejected";
  }
}

/** Checks each `[text, value, repairs]` whole, at every split in two, one character at a time, and in strict mode. */
function check(rows: readonly (readonly [string, unknown, [string, number][]])[]): void {
  for (const [text, value, repairs] of rows) {
    const expected: Reading = { value, repairs };
    expect(parse([text]), JSON.stringify(text)).toEqual(expected);
    for (let at = 0; at <= text.length; at++)
      expect(parse([text.slice(0, at), text.slice(at)]), `${JSON.stringify(text)} split at ${at}`).toEqual(expected);
    expect(parse(Array.from(text)), `${JSON.stringify(text)} a character at a time`).toEqual(expected);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = "rejected";
    }
    expect(parseStrict(text), `${JSON.stringify(text)} in strict mode`).toEqual(parsed);
  }
}

describe("lenient repairs users expect, at every chunk split", () => {
  it("reads numbers with leading zeros as strings that keep the digits", () => {
    check([
      ['{"id": 007}', { id: "007" }, [["number-as-string", 7]]],
      [
        "[007, -007, 00, 0123.5]",
        ["007", "-007", "00", "0123.5"],
        [
          ["number-as-string", 1],
          ["number-as-string", 6],
          ["number-as-string", 12],
          ["number-as-string", 16],
        ],
      ],
      ["007", "007", [["number-as-string", 0]]],
    ]);
  });

  it("reads words that start like numbers but are none as strings", () => {
    check([
      [
        "[1.2.3, 2e, 0x1F, 1e5e5]",
        ["1.2.3", "2e", "0x1F", "1e5e5"],
        [
          ["number-as-string", 1],
          ["number-as-string", 8],
          ["number-as-string", 12],
          ["number-as-string", 18],
        ],
      ],
      [
        '{"h": 0x1F, "d": 2024-01-01, "v": 2e}',
        { h: "0x1F", d: "2024-01-01", v: "2e" },
        [
          ["number-as-string", 6],
          ["number-as-string", 17],
          ["number-as-string", 34],
        ],
      ],
    ]);
  });

  it("closes a string whose closing quote is missing before a comma, a bracket, a line end or the end", () => {
    check([
      [
        '{"a": "abc, "b": 2}',
        { a: "abc", b: 2 },
        [
          ["unescaped-quote", 12],
          ["closed-quote", 12],
        ],
      ],
      ['{"a": "abc}', { a: "abc" }, [["closed-quote", 10]]],
      ['["abc]', ["abc"], [["closed-quote", 5]]],
      ['[{"a": "x}]', [{ a: "x" }], [["closed-quote", 9]]],
      ['{"a": {"b": "c} }', { a: { b: "c" } }, [["closed-quote", 14]]],
      [
        '{"a": "abc',
        { a: "abc" },
        [
          ["closed-string", 10],
          ["closed-object", 10],
        ],
      ],
      [
        '["abc',
        ["abc"],
        [
          ["closed-string", 5],
          ["closed-array", 5],
        ],
      ],
      ['"abc', "abc", [["closed-string", 4]]],
      [
        '{"a": "abc,\n"b": 1}',
        { a: "abc", b: 1 },
        [
          ["control-character", 12],
          ["unescaped-quote", 12],
          ["closed-quote", 12],
        ],
      ],
      ['{"a": ["x", "y]\n}', { a: ["x", "y"] }, [["closed-quote", 14]]],
      ['{"a": "abc,\n}', { a: "abc" }, [["closed-quote", 12]]],
      [
        '{"a": "abc,\n',
        { a: "abc" },
        [
          ["closed-quote", 12],
          ["closed-object", 12],
        ],
      ],
      // Brackets that do not close the containers around the string, or that an escape wrote, are its text.
      [
        '{"a": "x]',
        { a: "x]" },
        [
          ["closed-string", 9],
          ["closed-object", 9],
        ],
      ],
      [
        '{"a": "x}]',
        { a: "x}]" },
        [
          ["closed-string", 10],
          ["closed-object", 10],
        ],
      ],
      [
        '{"a": "ab\\u007d',
        { a: "ab}" },
        [
          ["closed-string", 15],
          ["closed-object", 15],
        ],
      ],
      [
        '["a\\]',
        ["a]"],
        [
          ["invalid-escape", 4],
          ["closed-string", 5],
          ["closed-array", 5],
        ],
      ],
      [
        '[\n  "first,\n  "second"\n]',
        ["first", "second"],
        [
          ["control-character", 14],
          ["unescaped-quote", 14],
          ["closed-quote", 14],
        ],
      ],
      [
        '{"a": "abc,',
        { a: "abc," },
        [
          ["closed-string", 11],
          ["closed-object", 11],
        ],
      ],
    ]);
  });

  it("reads a string or a key whose opening quote is missing", () => {
    check([
      ['{"a": abc"}', { a: "abc" }, [["opened-quote", 6]]],
      ['{"a": 1, "b": hello world"}', { a: 1, b: "hello world" }, [["opened-quote", 14]]],
      ['{a": 1}', { a: 1 }, [["opened-quote", 1]]],
      ['{"a": 1, b": 2}', { a: 1, b: 2 }, [["opened-quote", 9]]],
      ['["a", b", "c"]', ["a", "b", "c"], [["opened-quote", 6]]],
      ['[[b"]]', [["b"]], [["opened-quote", 2]]],
    ]);
  });

  it("joins strings concatenated with + across line breaks and comments", () => {
    check([
      ['{"a": "x" +\n "y"}', { a: "xy" }, [["concatenated-string", 10]]],
      ['{"a": "x"\n+ "y"}', { a: "xy" }, [["concatenated-string", 10]]],
      [
        '{"a": "x" + // join\n "y"}',
        { a: "xy" },
        [
          ["concatenated-string", 10],
          ["comment", 12],
        ],
      ],
      [
        '[["a" +\n\'b\' +\n"c"]]',
        [["abc"]],
        [
          ["concatenated-string", 6],
          ["single-quotes", 8],
          ["concatenated-string", 12],
        ],
      ],
      [
        '{"a": "x" +',
        { a: "x" },
        [
          ["concatenated-string", 10],
          ["dropped-key", 11],
          ["closed-object", 11],
        ],
      ],
    ]);
  });

  it("reads Python and JavaScript keywords as values, and as keys when they are keys", () => {
    check([
      [
        "{True: True, None: None, False: False, undefined: undefined, NaN: NaN}",
        { True: true, None: null, False: false, undefined: null, NaN: null },
        [
          ["unquoted-key", 1],
          ["python-literal", 7],
          ["unquoted-key", 13],
          ["python-literal", 19],
          ["unquoted-key", 25],
          ["python-literal", 32],
          ["unquoted-key", 39],
          ["javascript-literal", 50],
          ["unquoted-key", 61],
          ["javascript-literal", 66],
        ],
      ],
      [
        '{"a": [None, [True, False]], "b": {"c": undefined}}',
        { a: [null, [true, false]], b: { c: null } },
        [
          ["python-literal", 7],
          ["python-literal", 14],
          ["python-literal", 20],
          ["javascript-literal", 40],
        ],
      ],
      [
        "[[NaN, -Infinity]]",
        [[null, null]],
        [
          ["javascript-literal", 2],
          ["javascript-literal", 7],
        ],
      ],
    ]);
  });

  it("keeps the character of an escape JSON lacks, and the characters of an incomplete \\u escape", () => {
    check([
      ['{"a": "it\\\'s"}', { a: "it's" }, [["invalid-escape", 10]]],
      [
        "{'a': 'it\\'s'}",
        { a: "it's" },
        [
          ["single-quotes", 1],
          ["single-quotes", 6],
          ["invalid-escape", 10],
        ],
      ],
      [
        '["\\q\\x41"]',
        ["qx41"],
        [
          ["invalid-escape", 3],
          ["invalid-escape", 5],
        ],
      ],
      ['["\\u12g"]', ["u12g"], [["invalid-escape", 3]]],
      ['["\\u12"]', ["u12"], [["invalid-escape", 3]]],
      ['["\\u00e9"]', ["é"], []],
      [
        '["\\u12',
        [""],
        [
          ["closed-string", 6],
          ["closed-array", 6],
        ],
      ],
    ]);
  });

  it("keeps unescaped quotes inside a string before a word or punctuation, and closes it before a delimiter", () => {
    check([
      [
        '{"a": "he said "hi" to me"}',
        { a: 'he said "hi" to me' },
        [
          ["unescaped-quote", 15],
          ["unescaped-quote", 18],
        ],
      ],
      [
        '{"a": "she said "hi". Then"}',
        { a: 'she said "hi". Then' },
        [
          ["unescaped-quote", 16],
          ["unescaped-quote", 19],
        ],
      ],
      [
        '{"a": "a "b"!", "c": 1}',
        { a: 'a "b"!', c: 1 },
        [
          ["unescaped-quote", 9],
          ["unescaped-quote", 11],
        ],
      ],
      [
        '{"a": "he said "hi"\tto me"}',
        { a: 'he said "hi"\tto me' },
        [
          ["unescaped-quote", 15],
          ["unescaped-quote", 18],
        ],
      ],
      [
        '{"a": "what "is"? x"}',
        { a: 'what "is"? x' },
        [
          ["unescaped-quote", 12],
          ["unescaped-quote", 15],
        ],
      ],
      // A quote kept in an array's string opens the next element only after a comma or a line end.
      ['[["a, b "c"]]', [['a, b "c']], [["unescaped-quote", 8]]],
      [
        '[["first,\r\n"second"\r\n]]',
        [["first", "second"]],
        [
          ["control-character", 11],
          ["unescaped-quote", 11],
          ["closed-quote", 11],
        ],
      ],
      // A quote before a colon is no key's unless a quote was kept before it.
      [
        '{"a": "x": 1, "b": 2}',
        { a: "x" },
        [
          ["stopped", 9],
          ["closed-object", 9],
        ],
      ],
      [
        '{"a": "x"</tool>',
        { a: "x" },
        [
          ["stopped", 9],
          ["closed-object", 9],
        ],
      ],
      [
        '{"a": "x "y": 1}',
        { a: "x", y: 1 },
        [
          ["unescaped-quote", 9],
          ["closed-quote", 9],
          ["inserted-comma", 9],
        ],
      ],
    ]);
  });

  it("skips comments in every position, and reads one after the root value as text after it", () => {
    check([
      ['{"a" /* c */ : 1}', { a: 1 }, [["comment", 5]]],
      ['{"a" // c\n: 1}', { a: 1 }, [["comment", 5]]],
      ["[1, 2 /* c */]", [1, 2], [["comment", 6]]],
      [
        "[1, 2, // c\n]",
        [1, 2],
        [
          ["comment", 7],
          ["trailing-comma", 12],
        ],
      ],
      ['{"a": 1 # c\n}', { a: 1 }, [["comment", 8]]],
      ["[1] // c", [1], [["skipped-suffix", 4]]],
      ["[1] /* c */", [1], [["skipped-suffix", 4]]],
      ['{"a": 1} # c', { a: 1 }, [["skipped-suffix", 9]]],
      // A scalar root is still tried when the comment comes: a `//` or `/*` comment is skipped.
      ["5 // five", 5, [["comment", 2]]],
      ['"abc" /* c */', "abc", [["comment", 6]]],
      ["// c\n[1]", [1], [["skipped-prefix", 5]]],
      [
        "[1, 2 // cut",
        [1, 2],
        [
          ["comment", 6],
          ["closed-array", 12],
        ],
      ],
      [
        '{"a": tru // c',
        { a: "tru" },
        [
          ["unquoted-string", 6],
          ["comment", 10],
          ["closed-object", 14],
        ],
      ],
      [
        '{"a": abc /* c */ }',
        { a: "abc" },
        [
          ["unquoted-string", 6],
          ["comment", 10],
        ],
      ],
      [
        '{"a": "abc" /* c',
        { a: "abc" },
        [
          ["comment", 12],
          ["closed-object", 16],
        ],
      ],
    ]);
  });

  it("reads the first of newline-delimited values and skips the rest", () => {
    check([['{"a": 1}\n{"b": 2}\n', { a: 1 }, [["skipped-suffix", 9]]]]);
  });

  it("closes a truncated value at end()", () => {
    check([
      [
        '{"a": [1, {"b": "x',
        { a: [1, { b: "x" }] },
        [
          ["closed-string", 18],
          ["closed-object", 18],
          ["closed-array", 18],
          ["closed-object", 18],
        ],
      ],
      [
        "[tru",
        [true],
        [
          ["completed-literal", 4],
          ["closed-array", 4],
        ],
      ],
      [
        '{"a": 1.5e',
        { a: 1.5 },
        [
          ["truncated-number", 10],
          ["closed-object", 10],
        ],
      ],
      [
        '{"a": "x", "b',
        { a: "x" },
        [
          ["dropped-key", 13],
          ["closed-object", 13],
        ],
      ],
    ]);
  });
});
