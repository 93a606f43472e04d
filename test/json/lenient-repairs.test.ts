/**
 * The lenient repairs one by one: the value each gives, and the repair it
 * reports (kind, offset, message), the same at every chunk boundary.
 */
import { describe, expect, it } from "vitest";
import { createJsonStreamParser, type JsonStreamParserOptions } from "../../src/json/create-json-stream-parser.ts";

interface Reading {
  value: unknown;
  repairs: [string, number, string][];
}

/** Parses `chunks` in order and ends; the value (or the end error's message) and the repairs. */
function parse(chunks: readonly string[], options: JsonStreamParserOptions = {}): Reading {
  const parser = createJsonStreamParser(options);
  let value: unknown;
  try {
    for (const chunk of chunks) parser.write(chunk);
    value = parser.end();
  } catch (error) {
    value = `error: ${(error as Error).message}`;
  }
  return { value, repairs: parser.repairs.map((repair) => [repair.kind, repair.offset, repair.message]) };
}

/** Reads a text whole, checks that every split in two gives the same reading, and returns it. */
function read(text: string, options: JsonStreamParserOptions = {}): Reading {
  const whole = parse([text], options);
  for (let at = 1; at < text.length; at++)
    expect(parse([text.slice(0, at), text.slice(at)], options), `split at ${at}`).toEqual(whole);
  return whole;
}

/** The kinds and offsets of the repairs. */
function kinds(reading: Reading): [string, number][] {
  return reading.repairs.map(([kind, offset]) => [kind, offset]);
}

describe("lenient repairs: wrappers and joined strings", () => {
  it("reads the value inside Name(…) wrappers, nested or around the root, and only counts their own parentheses", () => {
    expect(read('{"id": ObjectId("x")}')).toEqual({
      value: { id: "x" },
      repairs: [["function-wrapper", 7, "Read the value inside ObjectId(…) at offset 7"]],
    });
    expect(read('[ObjectId("x"), 2]').value).toEqual(["x", 2]);
    expect(read('Decimal("1.5")').value).toBe("1.5");
    expect(kinds(read('{"a": F(G(1)), "b": 2}'))).toEqual([
      ["function-wrapper", 6],
      ["function-wrapper", 8],
    ]);
    expect(read('{"a": F(G(1)), "b": 2}').value).toEqual({ a: 1, b: 2 });
    // Once the wrapper closed, another ")" is no wrapper's.
    const stray = read('{"a": F(1), "b": 2)}');
    expect(stray.value).toEqual({ a: 1, b: 2 });
    expect(kinds(stray)).toEqual([
      ["function-wrapper", 6],
      ["stopped", 18],
      ["closed-object", 18],
    ]);
    expect(kinds(read('{"a": 1) , "b": 2}'))).toEqual([
      ["stopped", 7],
      ["closed-object", 7],
    ]);
  });

  it("leaves an array or an object waiting for the wrapped value as it would a value after a comma", () => {
    expect(read("[1, F(]")).toEqual({
      value: [1],
      repairs: [
        ["function-wrapper", 4, "Read the value inside F(…) at offset 4"],
        ["trailing-comma", 6, "Ignored a trailing comma at offset 6"],
      ],
    });
    expect(kinds(read('{"x": 1, "a": F('))).toEqual([
      ["function-wrapper", 14],
      ["dropped-key", 16],
      ["closed-object", 16],
    ]);
    expect(read("F(1").value).toBe(1);
  });

  it("does not read wrappers in strict mode", () => {
    expect(read('{"a": F(1)}', { strict: true }).value).toBe(
      'error: Unexpected character "F" at offset 6: expected a value',
    );
  });

  it("joins strings concatenated with +, and only strings", () => {
    expect(read('{"a": "x" + "y"}')).toEqual({
      value: { a: "xy" },
      repairs: [["concatenated-string", 10, "Joined strings concatenated with + at offset 10"]],
    });
    expect(read('{"a": ["x" + \'y\', "z"]}').value).toEqual({ a: ["xy", "z"] });
    expect(read('[["a" + \u201cb\u201d]]').value).toEqual([["ab"]]);
    for (const joined of ["1", "-1", "[1]", '{"b": 2}', "true"]) {
      const reading = read(`{"a": "x" + ${joined}}`);
      expect(reading.value, joined).toEqual({ a: "x" });
      expect(reading.repairs[1]?.[2], joined).toMatch(
        /^Stopped at unexpected .+ \(expected a string to join\); the rest was ignored at offset 12$/u,
      );
    }
    expect(read('["x", ["y" + -1]]').value).toEqual(["x", ["y"]]);
    // A number is not a string: its "+" is no join.
    expect(kinds(read('{"a": 1 + 2}'))).toEqual([
      ["stopped", 8],
      ["closed-object", 8],
    ]);
    // An element of the root array is handed out when it closes: it cannot change after.
    expect(read('["a" + "b"]').value).toEqual(["a"]);
  });
});

describe("lenient repairs: placeholders", () => {
  it("drops ... and … placeholders in arrays, and the key of one in an object", () => {
    expect(read("[1, ...]")).toEqual({
      value: [1],
      repairs: [["placeholder", 4, 'Dropped a "..." placeholder at offset 4']],
    });
    expect(read("[1, \u2026]")).toEqual({
      value: [1],
      repairs: [["placeholder", 4, 'Dropped a "…" placeholder at offset 4']],
    });
    expect(read("[1, .., 2]")).toEqual({
      value: [1, 2],
      repairs: [["placeholder", 4, 'Dropped a ".." placeholder at offset 4']],
    });
    expect(read('{"a": ..., "b": 2}')).toEqual({
      value: { b: 2 },
      repairs: [
        ["placeholder", 6, 'Dropped a "..." placeholder at offset 6'],
        ["dropped-key", 9, 'Dropped the key "a", whose value is a placeholder at offset 9'],
      ],
    });
    expect(kinds(read("[1, ..."))).toEqual([
      ["placeholder", 4],
      ["closed-array", 7],
    ]);
  });

  it("drops a placeholder where a key would be without dropping a key", () => {
    expect(read('{"x": 1, ...}')).toEqual({
      value: { x: 1 },
      repairs: [["placeholder", 9, 'Dropped a "..." placeholder at offset 9']],
    });
    expect(read("{...}").value).toEqual({});
  });

  it("stops at a single dot, which stands for nothing", () => {
    expect(read("[1, .]")).toEqual({
      value: [1],
      repairs: [
        ["stopped", 4, 'Stopped at unexpected character "." (expected a value); the rest was ignored at offset 4'],
        ["closed-array", 4, 'Closed an unfinished array with "]" at offset 4'],
      ],
    });
    // In an object the dot leaves its key without a value.
    expect(kinds(read('{"x": 1, "b": .}'))).toEqual([
      ["stopped", 14],
      ["dropped-key", 14],
      ["closed-object", 14],
    ]);
  });
});

describe("lenient repairs: unquoted and unclosed strings", () => {
  it("reads an unquoted value to the end of the member, trimmed", () => {
    expect(read('{"a": hello world , "b": 1}')).toEqual({
      value: { a: "hello world", b: 1 },
      repairs: [["unquoted-string", 6, 'Read the unquoted value "hello world" as a string at offset 6']],
    });
    const long = "x".repeat(50);
    expect(read(`{"a": ${long}}`)).toEqual({
      value: { a: long },
      repairs: [["unquoted-string", 6, `Read the unquoted value "${"x".repeat(40)}" as a string at offset 6`]],
    });
  });

  it("reads a value whose opening quote is missing, and keeps inner quotes as text", () => {
    expect(read('{"a": hello"}')).toEqual({
      value: { a: "hello" },
      repairs: [["opened-quote", 6, "Read a string whose opening quote is missing at offset 6"]],
    });
    expect(read('{"a": he"llo"}').value).toEqual({ a: 'he"llo"' });
    expect(kinds(read('{"a": he"llo"}'))).toEqual([["unquoted-string", 6]]);
  });

  it("reads unquoted words only as object values", () => {
    expect(read("[hello]").value).toBe("error: No JSON value found in the text (7 characters)");
  });

  it("closes a string at the line end when the next line starts a member, dropping a comma before it", () => {
    expect(read('{"a": "abc,\n"b": 1}')).toEqual({
      value: { a: "abc", b: 1 },
      repairs: [
        ["control-character", 12, "Kept a raw control character inside a string at offset 12"],
        ["unescaped-quote", 12, "Kept an unescaped quote inside a string at offset 12"],
        ["closed-quote", 12, "Closed a string whose closing quote is missing at offset 12"],
      ],
    });
    // Without the comma, it says that one was missing.
    expect(kinds(read('{"a": "abc\n"b": 1}'))).toEqual([
      ["control-character", 11],
      ["unescaped-quote", 11],
      ["closed-quote", 11],
      ["inserted-comma", 11],
    ]);
    expect(read('[\n  "first,\n  "second"\n]').value).toEqual(["first", "second"]);
    expect(read('{"a": "a,b,\n"c": 1}').value).toEqual({ a: "a,b", c: 1 });
    expect(kinds(read('{"a": "abc\n'))).toEqual([
      ["closed-quote", 11],
      ["closed-object", 11],
    ]);
  });

  it("keeps a line end inside a string that goes on", () => {
    expect(read('{"a": "line1\nline2"}')).toEqual({
      value: { a: "line1\nline2" },
      repairs: [["control-character", 13, "Kept a raw control character inside a string at offset 13"]],
    });
    expect(read('{"a": "x\r\n  y"}').value).toEqual({ a: "x\r\n  y" });
  });
});

describe("lenient repairs: missing commas and colons", () => {
  it("inserts a comma before anything that starts an array element", () => {
    const reading = read('[1 "x" {"a":1} [2] -3 \u201cq\u201d \u2018r\u2019 \'s\' 4]');
    expect(reading.value).toEqual([1, "x", { a: 1 }, [2], -3, "q", "r", "s", 4]);
    expect(reading.repairs.filter(([kind]) => kind === "inserted-comma").map(([, offset]) => offset)).toEqual([
      3, 7, 15, 19, 22, 26, 30, 34,
    ]);
    expect(read("[1 true]").value).toEqual([1, true]);
    expect(read("[1 0 9]").value).toEqual([1, 0, 9]);
    expect(read("[1 t]").repairs[1]).toEqual([
      "stopped",
      3,
      'Stopped at unexpected word "t" (expected a value); the rest was ignored at offset 3',
    ]);
    // A character that starts no value is no missing comma.
    expect(kinds(read("[1 ) 2]"))).toEqual([
      ["stopped", 3],
      ["closed-array", 3],
    ]);
    expect(kinds(read("[1 . 2]"))).toEqual([
      ["stopped", 3],
      ["closed-array", 3],
    ]);
    expect(kinds(read("[1 @]"))).toEqual([
      ["stopped", 3],
      ["closed-array", 3],
    ]);
  });

  it("inserts a colon after a quoted key before anything that starts a value", () => {
    for (const [text, value] of [
      ['{"a" 1}', 1],
      ['{"a" -1}', -1],
      ['{"a" "b"}', "b"],
      ["{'a' 'b'}", "b"],
      ['{"a" \u201cq\u201d}', "q"],
      ['{"a" \u2018q\u2019}', "q"],
      ['{"a" {"b":1}}', { b: 1 }],
      ['{"a" [1]}', [1]],
      ['{"a" true}', true],
    ] as const) {
      const reading = read(text);
      expect(reading.value, text).toEqual({ a: value });
      expect(
        reading.repairs.filter(([kind]) => kind === "inserted-colon"),
        text,
      ).toEqual([["inserted-colon", 5, "Inserted a missing colon after a key at offset 5"]]);
    }
    expect(read('{"a" .5}').value).toBe("error: No JSON value found in the text (8 characters)");
  });
});

describe("lenient repairs: words", () => {
  it("reads unquoted keys, Python literals and tuples", () => {
    expect(read("{a: 1}")).toEqual({
      value: { a: 1 },
      repairs: [["unquoted-key", 1, "Read an unquoted key at offset 1"]],
    });
    expect(read("[True, None, False]")).toEqual({
      value: [true, null, false],
      repairs: [
        ["python-literal", 1, "Read Python's True as true at offset 1"],
        ["python-literal", 7, "Read Python's None as null at offset 7"],
        ["python-literal", 13, "Read Python's False as false at offset 13"],
      ],
    });
    expect(read("[(1, 2)]").value).toEqual([[1, 2]]);
  });
});

describe("lenient repairs: numbers cut short", () => {
  it("reads what a truncated number has, and drops one without a digit with its key", () => {
    expect(read("[1.")).toEqual({
      value: [1],
      repairs: [
        ["truncated-number", 3, 'Read the incomplete number "1." as 1 at offset 3'],
        ["closed-array", 3, 'Closed an unfinished array with "]" at offset 3'],
      ],
    });
    expect(read("[2.5e").repairs[0]).toEqual([
      "truncated-number",
      5,
      'Read the incomplete number "2.5e" as 2.5 at offset 5',
    ]);
    expect(read("[2.5e").value).toEqual([2.5]);
    expect(read("[3e-").repairs[0]).toEqual([
      "truncated-number",
      4,
      'Read the incomplete number "3e-" as 3 at offset 4',
    ]);
    expect(read("[3E+").value).toEqual([3]);
    expect(read("[-4.").value).toEqual([-4]);
    expect(read("[-")).toEqual({
      value: [],
      repairs: [
        ["dropped-value", 2, 'Dropped an incomplete number "-" at offset 2'],
        ["closed-array", 2, 'Closed an unfinished array with "]" at offset 2'],
      ],
    });
    expect(read('{"a": 1, "b": -')).toEqual({
      value: { a: 1 },
      repairs: [
        ["dropped-value", 15, 'Dropped an incomplete number "-" at offset 15'],
        ["dropped-key", 15, 'Dropped the key "b", which has no value at offset 15'],
        ["closed-object", 15, 'Closed an unfinished object with "}" at offset 15'],
      ],
    });
    expect(read("-").value).toBe("error: No JSON value found in the text (1 characters)");
  });
});

describe("lenient repairs: words that start like numbers, JavaScript literals, # comments", () => {
  it("reads a number with leading zeros, or one that cannot be a number, as its characters", () => {
    expect(read('{"id": 007}')).toEqual({
      value: { id: "007" },
      repairs: [["number-as-string", 7, 'Read the unquoted value "007" as a string at offset 7']],
    });
    expect(read("[1.2.3, 0x1F, 2e, 2024-01-01, -007]")).toEqual({
      value: ["1.2.3", "0x1F", "2e", "2024-01-01", "-007"],
      repairs: [
        ["number-as-string", 1, 'Read the unquoted value "1.2.3" as a string at offset 1'],
        ["number-as-string", 8, 'Read the unquoted value "0x1F" as a string at offset 8'],
        ["number-as-string", 14, 'Read the unquoted value "2e" as a string at offset 14'],
        ["number-as-string", 18, 'Read the unquoted value "2024-01-01" as a string at offset 18'],
        ["number-as-string", 30, 'Read the unquoted value "-007" as a string at offset 30'],
      ],
    });
    expect(read("007").value).toBe("007");
    expect(kinds(read('{"v": 1.2.3'))).toEqual([
      ["number-as-string", 6],
      ["closed-object", 11],
    ]);
    // A number cut short by the end keeps its digits; one followed by a space or a delimiter is a number.
    expect(read("[1.5e").value).toEqual([1.5]);
    expect(read("[0, 10 ,1.5]").value).toEqual([0, 10, 1.5]);
  });

  it("does not read words that start like numbers in strict mode", () => {
    for (const text of ["[007]", "[1.2.3]", "[0x1F]", "[2e]", "[NaN]", "[undefined]", "[1] # c", "[1, # c\n2]"]) {
      expect(parse([text], { strict: true }).value, text).toMatch(/^error: Unexpected/u);
    }
  });

  it("reads undefined, NaN, Infinity and -Infinity as null, which JSON can carry", () => {
    expect(read("[undefined, NaN, Infinity, -Infinity]")).toEqual({
      value: [null, null, null, null],
      repairs: [
        ["javascript-literal", 1, "Read JavaScript's undefined as null at offset 1"],
        ["javascript-literal", 12, "Read JavaScript's NaN as null at offset 12"],
        ["javascript-literal", 17, "Read JavaScript's Infinity as null at offset 17"],
        ["javascript-literal", 27, "Read JavaScript's -Infinity as null at offset 27"],
      ],
    });
    expect(read('{"a": undefined, "b": NaN}').value).toEqual({ a: null, b: null });
    expect(read("[-Inf").value).toEqual(["-Inf"]);
  });

  it("skips # comments to the line end inside the value, and leaves prose headings before it", () => {
    expect(read('{"a": 1, # the count\n "b": 2}')).toEqual({
      value: { a: 1, b: 2 },
      repairs: [["comment", 9, "Skipped a comment at offset 9"]],
    });
    expect(read("[1, # one\n2 # two\n]").value).toEqual([1, 2]);
    expect(kinds(read("# Plan\n[1]"))).toEqual([["skipped-prefix", 7]]);
    expect(kinds(read("[1] # done"))).toEqual([["skipped-suffix", 4]]);
    expect(kinds(read("[1, 2 # cut"))).toEqual([
      ["comment", 6],
      ["closed-array", 11],
    ]);
  });
});

describe("lenient repairs: unescaped quotes", () => {
  it("keeps a quote followed by a word inside the string, and closes the string at one followed by anything else", () => {
    expect(read('{"a": "he said "hi" to me", "b": 1}')).toEqual({
      value: { a: 'he said "hi" to me', b: 1 },
      repairs: [
        ["unescaped-quote", 15, "Kept an unescaped quote inside a string at offset 15"],
        ["unescaped-quote", 18, "Kept an unescaped quote inside a string at offset 18"],
      ],
    });
    expect(read("{'a': 'it's fine'}")).toEqual({
      value: { a: "it's fine" },
      repairs: [
        ["single-quotes", 1, "Read a single-quoted string at offset 1"],
        ["single-quotes", 6, "Read a single-quoted string at offset 6"],
        ["unescaped-quote", 9, "Kept an unescaped quote inside a string at offset 9"],
      ],
    });
    expect(read('[{"q": "a "b"  c"}]').value).toEqual([{ q: 'a "b"  c' }]);
    expect(read('{"a": "x" "b": 1, "c": "y" }').value).toEqual({ a: "x", b: 1, c: "y" });
    expect(read('{"a": "x",\n"b": "y"\n}').repairs).toEqual([]);
    expect(read('{"a": ["x" , "y"], "b": "z"').value).toEqual({ a: ["x", "y"], b: "z" });
    expect(read('{"a": "x" ').value).toEqual({ a: "x" });
  });

  it("closes keys and the strings handed out as elements at their quote, on time", () => {
    expect(kinds(read('{"a" 1}'))).toEqual([["inserted-colon", 5]]);
    const parser = createJsonStreamParser();
    expect(parser.write('["ab"')).toEqual(["ab"]);
    expect(parser.write(', {"t": "x"')).toEqual([]);
    expect(parser.write("}")).toEqual([{ t: "x" }]);
  });

  it("does not read unescaped quotes in strict mode", () => {
    expect(parse(['{"a": "he said "hi""}'], { strict: true }).value).toMatch(/^error: Unexpected/u);
  });
});

describe("lenient repairs: a closing quote missing before the next key or element", () => {
  it("closes the string where the quote of the next key or element begins", () => {
    expect(read('{"a": "abc, "b": 2}')).toEqual({
      value: { a: "abc", b: 2 },
      repairs: [
        ["unescaped-quote", 12, "Kept an unescaped quote inside a string at offset 12"],
        ["closed-quote", 12, "Closed a string whose closing quote is missing at offset 12"],
      ],
    });
    expect(read('{"a": "abc "b": 2, "c": "x"}').value).toEqual({ a: "abc", b: 2, c: "x" });
    expect(kinds(read('[["abc, "d"], 1]'))).toEqual([
      ["unescaped-quote", 8],
      ["closed-quote", 8],
    ]);
    expect(kinds(read('{"a": "x "y": 1}'))).toEqual([
      ["unescaped-quote", 9],
      ["closed-quote", 9],
      ["inserted-comma", 9],
    ]);
    expect(read('{"a": ["x, "y", "z , "w"]}').value).toEqual({ a: ["x", "y", "z", "w"] });
    // Without a comma before the quote, an array's string keeps it.
    expect(read('[["a "b"]]').value).toEqual([['a "b']]);
  });
});

describe("lenient repairs: quotes, escapes and comments, with their messages", () => {
  it("says what it did for a key whose opening quote is missing, a quote before brackets, an escape and a comment", () => {
    expect(read('{a": ["x", y"]}').repairs).toEqual([
      ["opened-quote", 1, "Read a string whose opening quote is missing at offset 1"],
      ["opened-quote", 11, "Read a string whose opening quote is missing at offset 11"],
    ]);
    expect(read('{"a": "x "y": 1, "b": ["c\n"d"]}').repairs.slice(1)).toEqual([
      ["closed-quote", 9, "Closed a string whose closing quote is missing at offset 9"],
      ["inserted-comma", 9, "Inserted a missing comma between object members at offset 9"],
      ["control-character", 26, "Kept a raw control character inside a string at offset 26"],
      ["unescaped-quote", 26, "Kept an unescaped quote inside a string at offset 26"],
      ["closed-quote", 26, "Closed a string whose closing quote is missing at offset 26"],
      ["inserted-comma", 26, "Inserted a missing comma between array elements at offset 26"],
    ]);
    expect(read('{"a": {"b": "c}}').repairs).toEqual([
      ["closed-quote", 14, "Closed a string whose closing quote is missing at offset 14"],
    ]);
    expect(read('["\\q\\u1g"]').repairs).toEqual([
      ["invalid-escape", 3, "Kept the characters of an invalid escape \\q at offset 3"],
      ["invalid-escape", 5, "Kept the characters of an invalid escape \\u1 at offset 5"],
    ]);
    expect(read('{"a": two words // and a comment\n}')).toEqual({
      value: { a: "two words" },
      repairs: [
        ["unquoted-string", 6, 'Read the unquoted value "two words" as a string at offset 6'],
        ["comment", 16, "Skipped a comment at offset 16"],
      ],
    });
  });
});

describe("lenient repairs: newline-delimited values", () => {
  it("leaves the text after the value to the caller with prose: false, skipping nothing, in any chunking", () => {
    expect(read('[1] {"b": 2}', { prose: false })).toEqual({ value: [1], repairs: [] });
    expect(read('"nul" l', { prose: false })).toEqual({ value: "nul", repairs: [] });
  });

  it("reads the first value and skips the rest, saying so", () => {
    expect(kinds(read('{"call": 1}\n{"call": 2}\n'))).toEqual([["skipped-suffix", 12]]);
    expect(read('{"call": 1}\n{"call": 2}\n').value).toEqual({ call: 1 });
    expect(read("[1]\n[2]").value).toEqual([1]);
  });
});
