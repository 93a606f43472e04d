/**
 * Reading one JSON value a model wrote as a step, whatever call format it uses.
 *
 * @module
 */
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
import { isRecord } from "../shared/is-record.ts";
import { CALL_WRAPPER_KEYS, PLAN_KEYS, STEP_KEYS, STRUCTURE_KEYS, TOOL_NAME_PATTERN } from "./call-formats.ts";

/**
 * Reads a JSON-encoded object leniently.
 *
 * @param text - the text.
 * @returns the object, or `undefined` when the text holds none.
 */
function parseObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  const parser = createJsonStreamParser({ prose: false });
  parser.write(trimmed);
  try {
    const value = parser.end();
    return isRecord(value) && parser.restOffset !== undefined && trimmed.slice(parser.restOffset).trim() === ""
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one JSON value as a step, when it is one.
 *
 * - An object with a step field (`type`, `action`, `step_id`, `name`,
 *   `tool`, `tool_name`, `function`, `reply`, `text`, `prompt`) is a step,
 *   returned as it is for `normalizeStep` (which reads call objects with
 *   `arguments`/`parameters`/`params`/`args`/`input`, arguments as a JSON
 *   string, and OpenAI's `{type: "function", function}`).
 * - `{"function_call" | "tool_call" | "call": {…}}` is the call inside.
 * - A record `{tool_name: {args}}` or `{tool_name: "<json args>"}` — one key
 *   that looks like a tool name and is no plan field — is
 *   `{name: tool_name, arguments: args}`.
 * - With `name` (a tool name written before the value, as in
 *   `get_weather\n{"city": "Paris"}`), any other object is that tool's arguments.
 *
 * @param value - a parsed value.
 * @param name - the tool name written just before the value, if any.
 * @returns the step to normalize, or `undefined` when the value is no step.
 *
 * @example
 * ```ts
 * toCallStep({ get_weather: { city: "Paris" } }); // { name: "get_weather", arguments: { city: "Paris" } }
 * toCallStep({ temperature: 21 });                // undefined
 * ```
 */
export function toCallStep(value: unknown, name?: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  if (STEP_KEYS.some((key) => Object.hasOwn(value, key))) return value;
  const keys = Object.keys(value);
  if (name !== undefined && !keys.some((key) => STRUCTURE_KEYS.has(key))) return { name, arguments: value };
  if (keys.length !== 1) return undefined;
  const key = keys[0]!;
  const inner = value[key];
  if (CALL_WRAPPER_KEYS.has(key)) return isRecord(inner) ? toCallStep(inner) : undefined;
  if (PLAN_KEYS.has(key) || !TOOL_NAME_PATTERN.test(key)) return undefined;
  const args = typeof inner === "string" ? parseObject(inner) : isRecord(inner) ? inner : undefined;
  return args === undefined ? undefined : { name: key, arguments: args };
}
