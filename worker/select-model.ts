/**
 * Which model the Worker plans with.
 *
 * @module
 */
import type { PlanModel } from "../src/model.ts";
import { HttpProblem } from "./http/http-problem.ts";
import { lazyModel } from "./lazy-model.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The Workers AI model used when `PLANKIT_MODEL` names none. */
const defaultWorkersAiModel = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** The model a request runs with, and how the Worker names it in responses. */
export interface SelectedModel {
  model: PlanModel;
  /** The model's name: the configured model id, or the offline model's name. */
  name: string;
  /** `openai`, `openai-compatible` (a custom base URL), `workers-ai`, or the name an offline model or a custom selection gives (the demo's: `demo`). */
  provider: string;
}

/**
 * Picks the model from the environment: with `OPENAI_API_KEY` or
 * `OPENAI_BASE_URL` set, `PLANKIT_MODEL` (default `gpt-4o-mini`) through
 * `@ai-sdk/openai`'s chat API (which OpenAI-compatible servers also speak)
 * and `fromLanguageModel`; else, with a Workers AI binding `AI`,
 * `PLANKIT_MODEL` (default `@cf/meta/llama-3.3-70b-instruct-fp8-fast`)
 * through `workers-ai-provider`; otherwise the offline model the
 * application gives (the demo's, in `worker/index.ts`). The name never
 * includes the key or the base URL. The model's failures name the host it
 * tried, the setting that chose it and what to check (see
 * `explainModelError`). The provider's code (`@ai-sdk/openai` or
 * `workers-ai-provider`, with the AI SDK) is imported on the model's first
 * call, so a Worker on its offline model never loads it.
 *
 * @param env - the Worker's environment.
 * @param offlineModel - the model when the environment configures none.
 * @returns the model and its name.
 * @throws {HttpProblem} 503 `model-not-configured` when the environment
 *   configures no model and there is no offline model.
 *
 * @example
 * ```ts
 * const { model, name } = selectModel(env, offlineModel);
 * response.headers.set("x-plankit-model", name);
 * ```
 */
export function selectModel(env: WorkerEnv, offlineModel?: (env: WorkerEnv) => SelectedModel): SelectedModel {
  const apiKey = env.OPENAI_API_KEY?.trim() ?? "";
  const baseURL = env.OPENAI_BASE_URL?.trim() ?? "";
  if (apiKey === "" && baseURL === "" && env.AI !== undefined) {
    const binding = env.AI;
    const modelId = env.PLANKIT_MODEL?.trim() || defaultWorkersAiModel;
    return {
      model: lazyModel(async () =>
        (await import("./create-workers-ai-model.ts")).createWorkersAiModel(binding, modelId),
      ),
      name: modelId,
      provider: "workers-ai",
    };
  }
  if (apiKey === "" && baseURL === "") {
    if (offlineModel !== undefined) return offlineModel(env);
    throw new HttpProblem(
      503,
      "No model is configured: set OPENAI_API_KEY or OPENAI_BASE_URL (and PLANKIT_MODEL), or bind Workers AI as AI",
      {
        code: "model-not-configured",
      },
    );
  }
  const modelId = env.PLANKIT_MODEL?.trim() || "gpt-4o-mini";
  return {
    model: lazyModel(async () =>
      (await import("./create-openai-model.ts")).createOpenAiModel({ apiKey, baseURL, modelId }),
    ),
    name: modelId,
    provider: baseURL === "" ? "openai" : "openai-compatible",
  };
}
