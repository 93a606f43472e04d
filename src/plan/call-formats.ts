/**
 * The words of the tool-call formats models write, as data: the tags and
 * markers around calls (read by `createToolCallReader`), the keys of steps,
 * calls and plans (read by `toCallStep`) and the aliases of step types and
 * argument fields (read by `normalizeStep`). docs/formats.md shows each format.
 *
 * Some lists overlap and still differ on purpose; each says why.
 *
 * @module
 */
import type { PlanStep } from "./plan-step-schema.ts";

/**
 * Keys under which a root object may wrap its list of steps or calls
 * (`{"tool_calls": [...]}`): the JSON parser unwraps them.
 */
export const STEP_LIST_KEYS: readonly string[] = [
  "steps",
  "plan",
  "tool_calls",
  "calls",
  "actions",
  "function_calls",
  "functions",
  "tasks",
];

/** Keys of a task graph or a sketch rather than a step list. */
const graphKeys = ["vertices", "edges", "task_nodes", "task_links"];

/**
 * Keys of whole plans (wrappers, sketches, task graphs): an object with one
 * is never the arguments of a tool named before it (`get_weather\n{…}`).
 * Narrower than {@link STEP_LIST_KEYS}: `actions`, `functions` and `tasks`
 * are also common parameter names of real tools, so an object that follows a
 * tool name and has them is still that tool's arguments.
 */
export const STRUCTURE_KEYS: ReadonlySet<string> = new Set([
  "steps",
  "plan",
  "tool_calls",
  "calls",
  "function_calls",
  ...graphKeys,
]);

/**
 * Keys of a flat call's arguments, in order of preference
 * (`{"name": "f", "args": {…}}`). OpenAI's `{"function": {…}}` knows only
 * `arguments` and `parameters`, and the step-list shape only `params`,
 * `arguments` and `args`: those are read with their own, shorter lists.
 */
export const ARGUMENT_KEYS: readonly string[] = ["arguments", "args", "params", "parameters", "input"];

/**
 * Keys that name a part of a plan or of a call, never a tool, so that a
 * record `{key: {...}}` is not read as a call of `key`: the step-list
 * wrappers, the graph keys, the argument keys, `result` and `error`. Wider
 * than {@link STRUCTURE_KEYS}, which says what cannot be arguments.
 */
export const PLAN_KEYS: ReadonlySet<string> = new Set([
  ...STEP_LIST_KEYS,
  ...graphKeys,
  ...ARGUMENT_KEYS,
  "result",
  "error",
]);

/**
 * Keys naming the tool of a flat call or compact step, in order of
 * preference. The step-list shape prefers `tool` (its `action` says
 * `use_tool`), and a call's name for a message also looks in `function`.
 */
export const TOOL_NAME_KEYS: readonly string[] = ["name", "tool", "tool_name"];

/**
 * Keys whose presence makes an object a step (or call object) in a shape
 * `normalizeStep` reads: the canonical, compact, flat, step-list and OpenAI shapes.
 */
export const STEP_KEYS: readonly string[] = [
  "type",
  "action",
  "step_id",
  ...TOOL_NAME_KEYS,
  "function",
  "reply",
  "text",
  "prompt",
];

/** Single keys that wrap one call object: `{"function_call": {name, arguments}}`. */
export const CALL_WRAPPER_KEYS: ReadonlySet<string> = new Set(["function_call", "tool_call", "call"]);

/** A step's `type` (or a step-list `action`) as models write it, and the canonical type it means. */
export const STEP_TYPE_ALIASES: Readonly<Record<string, PlanStep["type"]>> = {
  tool: "tool",
  tool_call: "tool",
  function: "tool",
  function_call: "tool",
  use_tool: "tool",
  llm: "llm",
  reasoning: "llm",
  llm_reasoning: "llm",
  reply: "reply",
  answer: "reply",
  final: "reply",
  final_answer: "reply",
  respond: "reply",
  response: "reply",
};

/**
 * Tags (`<x>`, `</x>`, `<|x|>`) around tool calls; after an opening one comes
 * a call position. DeepSeek's `<｜tool▁call▁begin｜>` is read as `tool_call_begin`
 * (see `tagName` in create-tool-call-reader.ts).
 */
export const CALL_TAGS: ReadonlySet<string> = new Set([
  "tool_call",
  "tool_calls",
  "function_call",
  "function_calls",
  "functioncall",
  "tools",
  "python_tag",
  "toolcall",
  "tool_code",
  "tool_calls_begin",
  "tool_call_begin",
]);

/** Special tokens that end a model turn or a call block. */
export const END_TAGS: ReadonlySet<string> = new Set([
  "eom_id",
  "eot_id",
  "im_end",
  "end",
  "call",
  "function",
  "tool_call_end",
  "tool_calls_end",
  "end_of_sentence",
]);

/** DeepSeek's separator between a call's name and its arguments: `get_weather<｜tool▁sep｜>{…}`. */
export const SEPARATOR_TAG = "tool_sep";

/** Mistral's marker before a list of calls: `[TOOL_CALLS][{…}]`. */
export const TOOLS_MARKER = "[TOOL_CALLS]";

/** Mistral's marker between a call's name and its arguments: `get_weather[ARGS]{…}`. */
export const ARGUMENTS_MARKER = "[ARGS]";

/** A tool name as models write them: letters, digits, `_`, `$`, `-` and `.`, not starting with a digit. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_$][\w$.-]*$/u;

/** A string whose whole content is one call: `get_weather(city="Paris")`, `math.gcd(num1=12, num2=18)`. */
export const QUOTED_CALL_PATTERN = /^[A-Za-z_$][\w$.-]*\s*\([\s\S]*\)$/u;

/** The longest tool name looked for (longer words are prose). */
export const MAX_NAME_LENGTH = 256;
