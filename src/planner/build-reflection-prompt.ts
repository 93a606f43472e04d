/**
 * The prompt that asks a model what to do about a failed step.
 *
 * @module
 */
import { truncateJson } from "../shared/truncate-json.ts";
import type { ReflectionRequest } from "./reflector.ts";

/** The system prompt of a reflection: one JSON verdict on a failed step. */
export const reflectionSystemPrompt =
  "You review a failed step of a tool plan and decide what to do next. Answer with one JSON object and nothing else.";

/**
 * Builds the reflection prompt: the step, what happened, the constraints,
 * the answer format.
 *
 * @param request - the failure.
 * @param maxResultChars - how much of each result to show.
 * @returns the prompt.
 *
 * @example
 * ```ts
 * const prompt = buildReflectionPrompt(request, 500);
 * ```
 */
export function buildReflectionPrompt(request: ReflectionRequest, maxResultChars: number): string {
  const lines = [`# Request\n${request.query}`, `# Failed step\n${JSON.stringify(request.step)}`];
  if (request.tool !== undefined) {
    lines.push(
      `# Tool\n${request.tool.name}: ${request.tool.description}\nInput schema: ${JSON.stringify(request.tool.inputSchema)}`,
    );
  }
  lines.push(`# Input of the last attempt\n${truncateJson(request.input, maxResultChars)}`);
  lines.push(`# Error after ${request.attempts} attempt(s)\n${request.error.code}: ${request.error.message}`);
  if (request.completed.length > 0) {
    lines.push(
      `# Completed steps\n${request.completed.map(({ step, result }) => `${step.id}: ${truncateJson(result, maxResultChars)}`).join("\n")}`,
    );
  }
  lines.push(
    [
      "# Answer",
      "One JSON object:",
      '{"action":"retry","arguments":{"<argument to change>":"<new value>"},"reason":"<why>"}',
      '- "retry": different arguments would likely work; give only the arguments to change.',
      '- "new_plan": the step cannot work as planned; the rest of the plan should be re-planned.',
      '- "abort": the request cannot be completed.',
    ].join("\n"),
  );
  return lines.join("\n\n");
}
