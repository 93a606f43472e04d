/**
 * The rules every planning prompt states.
 *
 * @module
 */
import { countOf } from "../shared/count-of.ts";

/**
 * Renders the system prompt of a planning call: the strong
 * constraints (only a JSON array; only the listed tools; arguments per
 * schema; end with a reply), the three compact step shapes (see
 * `toCompactStep`), the reference syntax,
 * what `read_only` means, and the step limit. It depends only on
 * `maxSteps`, so providers can cache it as a prompt prefix.
 *
 * @param maxSteps - the most steps a plan may have.
 * @returns the system prompt.
 *
 * @example
 * ```ts
 * const system = renderPlanRules(6);
 * ```
 */
export function renderPlanRules(maxSteps: number): string {
  return `You are a planning module. Output a plan: a JSON array of steps, each one of
  {"id":"s1","tool":"<tool_name>","args":{...}} — call a tool
  {"id":"s2","prompt":"<instruction>"} — ask the language model, e.g. to summarize or reason over results
  {"id":"s3","reply":"<answer to the user>"} — the final answer
A string may use an earlier step's result as {{id}}, or a field of it as {{id.field.0.name}} (numbers index arrays): a string that is one reference becomes that value, else the value is inserted as text.
Rules:
- Use ONLY tools in AVAILABLE_TOOLS, by exact name; args MUST follow the tool's input_schema, every required argument given.
- Ids are unique (s1, s2, ...); a step refers only to steps before it.
- A step starts once the steps it refers to are done, so independent steps run in parallel: write them first, then the steps combining them.
- Tools with "read_only": true only read; use tools that change things only when the request asks for it.
- Use at most ${countOf(maxSteps, "step")}. End with exactly one reply step.
- Output ONLY the JSON array (no prose, no code fences), one step per line, unindented.`;
}
