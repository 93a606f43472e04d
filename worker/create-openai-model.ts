/**
 * The Worker's model on OpenAI or an OpenAI-compatible server. The Worker
 * imports this module only when its settings choose that model.
 *
 * @module
 */
import { createOpenAI } from "@ai-sdk/openai";
import { fromLanguageModel } from "../src/ai.ts";
import type { PlanModel } from "../src/model.ts";
import { withExplainedErrors } from "./explain-model-error.ts";

/** What {@link createOpenAiModel} builds the model from. */
export interface OpenAiModelSettings {
  /** `OPENAI_API_KEY`, or `""` when unset. */
  apiKey: string;
  /** `OPENAI_BASE_URL`, or `""` when unset (OpenAI's own API). */
  baseURL: string;
  /** The model id. */
  modelId: string;
}

/**
 * `modelId` through `@ai-sdk/openai`'s chat API (which OpenAI-compatible
 * servers also speak) and `fromLanguageModel`, its failures explained by
 * `withExplainedErrors`.
 *
 * @param settings - the key, base URL and model id.
 * @returns the model.
 *
 * @example
 * ```ts
 * const model = createOpenAiModel({ apiKey: "", baseURL: "http://localhost:11434/v1", modelId: "qwen2.5" });
 * ```
 */
export function createOpenAiModel({ apiKey, baseURL, modelId }: OpenAiModelSettings): PlanModel {
  const openai = createOpenAI({
    apiKey: apiKey === "" ? "not-needed" : apiKey,
    ...(baseURL === "" ? {} : { baseURL }),
  });
  return withExplainedErrors(fromLanguageModel(openai.chat(modelId), { temperature: 0, maxRetries: 1 }), {
    provider: baseURL === "" ? "openai" : "openai-compatible",
    baseURL,
    hasKey: apiKey !== "",
    modelId,
  });
}
