/**
 * The tool registry of the guided demo.
 *
 * @module
 */
import { ToolRegistry } from "../../src/index.ts";
import { createQuestionAnswerTool } from "./create-question-answer-tool.ts";
import { createReadDatesTool } from "./create-read-dates-tool.ts";
import { createReadDestinationTool } from "./create-read-destination-tool.ts";
import { createTripFactsTool } from "./create-trip-facts-tool.ts";
import { createTripSummaryTool } from "./create-trip-summary-tool.ts";

/**
 * Creates the registry of the trip guide's tools, one per skill of
 * `tripGuideSkills` and named like it; all offline and read-only:
 * `read_destination`, `read_dates`, `look_up_facts` and `answer_question`
 * (over the demo knowledge base), `summarize_trip`.
 *
 * @returns the registry.
 * @example
 * ```ts
 * await createGuideTools().call("read_dates", { message: "May 1 to May 8", inputs: {} }); // { dates: { from: "May 1", to: "May 8" } }
 * ```
 */
export function createGuideTools(): ToolRegistry {
  return new ToolRegistry().register([
    createReadDestinationTool(),
    createReadDatesTool(),
    createTripFactsTool(),
    createTripSummaryTool(),
    createQuestionAnswerTool(),
  ]);
}
