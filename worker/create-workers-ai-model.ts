/**
 * The Worker's model on Workers AI. The Worker imports this module only when
 * its settings choose that model.
 *
 * @module
 */
import { createWorkersAI } from "workers-ai-provider";
import { fromLanguageModel } from "../src/ai.ts";
import type { PlanModel } from "../src/model.ts";
import { withExplainedErrors } from "./explain-model-error.ts";

/**
 * `modelId` on the Workers AI binding through `workers-ai-provider` and
 * `fromLanguageModel`, its failures explained by `withExplainedErrors`.
 *
 * @param binding - the Workers AI binding (`AI`).
 * @param modelId - the model id, an `@cf/…` id.
 * @returns the model.
 *
 * @example
 * ```ts
 * const model = createWorkersAiModel(env.AI, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
 * ```
 */
export function createWorkersAiModel(binding: Ai, modelId: string): PlanModel {
  return withExplainedErrors(
    fromLanguageModel(createWorkersAI({ binding })(modelId), { temperature: 0, maxRetries: 1 }),
    { provider: "workers-ai", modelId },
  );
}
