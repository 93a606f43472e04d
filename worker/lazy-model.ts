/**
 * A model whose code loads on its first call.
 *
 * @module
 */
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../src/model.ts";

/**
 * A model that calls `load` on its first stream and then streams with the
 * model it gives: the Worker imports a provider's code (`@ai-sdk/openai`,
 * `workers-ai-provider`, the AI SDK) only when a request plans with it, so
 * a Worker on its offline model never loads them. A failed load fails that
 * stream and is tried again on the next.
 *
 * @param load - gives the model, typically through a dynamic `import()`.
 * @returns the model.
 *
 * @example
 * ```ts
 * const model = lazyModel(async () => (await import("./create-openai-model.ts")).createOpenAiModel(settings));
 * ```
 */
export function lazyModel(load: () => Promise<PlanModel>): PlanModel {
  let loading: Promise<PlanModel> | undefined;
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      yield* (await loading).stream(request);
    },
  };
}
