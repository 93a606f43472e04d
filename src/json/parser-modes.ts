/**
 * The modes of the JSON stream parser (`createJsonStreamParser`) and the sub-states of its number scanner.
 * Structural modes say what may come next; token modes are in the middle of a string, number, literal or comment.
 * This module imports nothing, so that a bundler writes each of them in the parser as the number it is.
 *
 * @module
 */

export const PREAMBLE = 0; // lenient: before the root value
export const VALUE = 1; // a value: the root (strict) or after ":"
export const ARRAY_FIRST = 2; // after "[": a value or "]"
export const ARRAY_VALUE = 3; // after "," in an array
export const ARRAY_NEXT = 4; // after an element: "," or "]"
export const OBJECT_FIRST = 5; // after "{": a key or "}"
export const OBJECT_KEY = 6; // after "," in an object
export const COLON = 7;
export const OBJECT_NEXT = 8; // after a member: "," or "}"
export const AFTER_ROOT = 9;
export const STRING = 10;
export const ESCAPE = 11;
export const UNICODE = 12;
export const NUMBER = 13;
export const LITERAL = 14; // strict: true / false / null
export const IDENT = 15; // lenient: a bare word (literal or unquoted key)
export const COMMENT_START = 16;
export const LINE_COMMENT = 17;
export const BLOCK_COMMENT = 18;
export const BLOCK_COMMENT_STAR = 19;
export const DONE = 20;
export const ELLIPSIS = 21; // lenient: a `...` placeholder
export const UNQUOTED = 22; // lenient: an unquoted string value, up to "," "}" "]" or the line end
export const STRING_EOL = 23; // lenient: a line ended inside a string: closed there, or not?
export const STRING_QUOTE = 24; // lenient: a quote inside a value: the string's end, or a quote left unescaped?
export const NUMBER_WORD = 25; // lenient: a number that goes on as a word (`007`, `1.2.3`, `0x1F`): a string

// Number sub-states (JSON number grammar): after "-" (0), "0" (1), other integer digits (2), "." (3), fraction
// digits (4), "e" (5), the exponent's sign (6), exponent digits (7); N_START (8) before the first character.
export const N_START = 8;
export const N_ZERO = 1;
export const N_DOT = 3;
export const N_E = 5;
export const N_E_SIGN = 6;
