/**
 * The run's own model calls as durable steps.
 *
 * @module
 */
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../../src/model.ts";
import type { DurableStep } from "./durable-step.ts";
import { readModelCallName } from "./name-model-calls.ts";
import { streamStoredStep } from "./stream-stored-step.ts";

/** What the engine stores for one model call: the parts it streamed, and the error that ended it early, if any. */
interface RecordedCall {
  parts: PlanModelPart[];
  error?: string;
}

/**
 * One model call: no engine retries (a run in memory does not retry these
 * either; a failure is stored like a result), and a limit past the
 * runtime's own bound on one call, which reports first.
 */
const modelCallConfig = { retries: { limit: 0, delay: 0 }, timeout: 180_000 } as const;

/**
 * Wraps the run's model for a Workflow: each call the run makes itself
 * outside a plan step — reflection after a failure, the integrated answer —
 * is one `step.do`, named by its place in the run: the name
 * `nameModelCalls` gave it (`model:reflect:<step id>:<n>`, see
 * `createDurableReflector`), else `model:<purpose>:<n>`, the n-th call of
 * that purpose (the run integrates once). The callback hands each part
 * to the run as the model writes it — an integrated answer reaches the
 * session log as `reply-delta` events while it is written — and the
 * engine stores the parts; the `finish` part (and anything after it)
 * reaches the run only once the call is stored, so the run acts on a
 * finished answer only when a replay would find it. An execution that
 * replays the run after a restart gets the stored parts at once without
 * asking the model again, so it makes the same decisions; a restart while
 * the call streams asks the model again (the call was not stored). A
 * stream that fails is stored with the parts before the failure and fails
 * again at the same place on replay. `llm` steps pass through: they
 * already run inside their plan step's `step.do` (`createDurableExecutor`).
 *
 * The runtime's budget and timeouts (`guardModel`) wrap this model, so a
 * replayed call counts against `modelCalls` and its tokens as the first
 * execution counted them.
 *
 * @param model - the run's model.
 * @param step - the Workflow's steps.
 * @returns the durable model.
 *
 * @example
 * ```ts
 * new AgentRuntime({ planner, registry, model: createDurableModel(setup.model, step), executeStep });
 * ```
 */
export function createDurableModel(model: PlanModel, step: DurableStep): PlanModel {
  const counts = new Map<string, number>();
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      if (request.purpose === "llm-step") {
        yield* model.stream(request);
        return;
      }
      let name = readModelCallName(request);
      if (name === undefined) {
        const purpose = request.purpose ?? "call";
        const count = (counts.get(purpose) ?? 0) + 1;
        counts.set(purpose, count);
        name = `model:${purpose}:${count}`;
      }
      // From the first `finish` on, parts wait for the store.
      yield* streamStoredStep(
        (emit) =>
          step.do(name, modelCallConfig, async (): Promise<RecordedCall> => {
            const parts: PlanModelPart[] = [];
            let holding = false;
            try {
              for await (const part of model.stream(request)) {
                const copy = JSON.parse(JSON.stringify(part)) as PlanModelPart;
                parts.push(copy);
                holding ||= copy.type === "finish";
                if (!holding) emit(copy);
              }
            } catch (error) {
              return { parts, error: error instanceof Error ? error.message : String(error) };
            }
            return { parts };
          }),
        (stored) => ({ items: stored.parts, error: stored.error }),
      );
    },
  };
}
