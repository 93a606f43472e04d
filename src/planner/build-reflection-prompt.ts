/**
 * The prompt that asks a model what to do about a failed step.
 *
 * @module
 */
import { truncateJson } from "../shared/truncate-json.ts";
import type { ReflectionRequest } from "./reflector.ts";

/** The system prompt of a reflection: one JSON verdict on a failed step. */
export const reflectionSystemPrompt =
  "Decide what to do about a failed step of a tool plan. Answer with one JSON object only.";

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
  const { tool, completed } = request;
  return [
    `Request\n${request.query}`,
    `Failed step\n${JSON.stringify(request.step)}`,
    tool && `Tool\n${tool.name}: ${tool.description}\nInput schema: ${JSON.stringify(tool.inputSchema)}`,
    `Input of the last attempt\n${truncateJson(request.input, maxResultChars)}`,
    `Error after ${request.attempts} attempt(s)\n${request.error.code}: ${request.error.message}`,
    completed.length > 0 &&
      `Completed steps\n${completed.map(({ step, result }) => `${step.id}: ${truncateJson(result, maxResultChars)}`).join("\n")}`,
    `Answer
{"action":"retry","arguments":{"<argument to change>":"<new value>"},"reason":"<why>"}, the action one of
- "retry": other arguments would likely work; give only those to change.
- "new_plan": the step cannot work as planned; re-plan the rest.
- "abort": the request cannot be completed.`,
  ]
    .filter((section) => typeof section === "string")
    .map((section) => `# ${section}`)
    .join("\n\n");
}
