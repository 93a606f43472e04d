/**
 * The rules every planning prompt states.
 *
 * @module
 */

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
  return [
    "You are a planning module. Produce a plan as a JSON array of steps.",
    "Each step is one of:",
    '  1) {"id":"s1","tool":"<tool_name>","args":{...}} — call a tool',
    '  2) {"id":"s2","prompt":"<an instruction for the language model>"} — ask the language model, e.g. to summarize or reason over results',
    '  3) {"id":"s3","reply":"<the answer to the user>"} — the final answer',
    "References: a string may use the result of an earlier step as {{id}}, or a field of it as {{id.field.0.name}} (numbers index arrays).",
    "A string that is exactly one reference becomes that value; inside longer text the value is inserted as text.",
    "Rules:",
    "- Use ONLY the tools in AVAILABLE_TOOLS, by their exact names.",
    "- args MUST follow the tool's input_schema; give every required argument.",
    "- Give every step a unique id (s1, s2, ...); a step may refer only to steps before it.",
    "- A step starts as soon as the steps it refers to are done, so steps that do not depend on each other run in parallel: write independent steps first, then the steps that combine their results.",
    '- Tools with "read_only": true only read; use tools that change things only when the request asks for it.',
    `- Use at most ${maxSteps} step${maxSteps === 1 ? "" : "s"}.`,
    "- Conclude with exactly one reply step, as the last step.",
    "- Output ONLY the JSON array (no explanations / code fences), one step per line, without indentation: every character is time.",
  ].join("\n");
}
