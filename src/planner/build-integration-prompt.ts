/**
 * The prompt that asks a model to write the answer from a run's results.
 *
 * @module
 */
import { truncateJson } from "../shared/truncate-json.ts";

/** One step of a run as the integration prompt shows it. */
export interface IntegrationResult {
  /** The step's id. */
  id: string;
  /** The tool it called; absent for an `llm` step. */
  tool?: string;
  /** How it ended. */
  status: "succeeded" | "failed" | "skipped";
  /** Its result, when it succeeded. */
  result?: unknown;
  /** Its error message, when it failed. */
  error?: string;
  /** Why it was not done, when a person declined it (or a step it needed). */
  reason?: string;
}

/**
 * The prompt that asks the model to integrate the results into an answer:
 * the request, each step's outcome (results cut to 1,500 characters), and
 * the task — answer in the request's language, invent nothing, say what
 * could not be done.
 *
 * @param query - the request.
 * @param results - the steps but the reply, in plan order.
 * @returns the prompt.
 *
 * @example
 * ```ts
 * buildIntegrationPrompt("weather in Paris?", [{ id: "s1", tool: "weather", status: "succeeded", result: { temp: 21 } }]);
 * ```
 */
export function buildIntegrationPrompt(query: string, results: readonly IntegrationResult[]): string {
  const lines = results.map((entry) => {
    const label = entry.tool === undefined ? `${entry.id} (llm)` : `${entry.id} (${entry.tool})`;
    if (entry.status === "succeeded") return `${label}: ${truncateJson(entry.result, 1500)}`;
    if (entry.status === "failed") return `${label} failed: ${entry.error ?? "unknown error"}`;
    return entry.reason === undefined ? `${label} was skipped` : `${label} was not done: ${entry.reason}`;
  });
  return [
    `# Request\n${query}`,
    `# Results\n${lines.length === 0 ? "(no steps ran)" : lines.join("\n")}`,
    "# Task\nAnswer the request from these results, in its language; invent no result, and say what could not be done.",
  ].join("\n\n");
}
