/**
 * The Worker's model when its environment configures none.
 *
 * @module
 */
import type { SelectedModel } from "../select-model.ts";
import type { WorkerEnv } from "../worker-env.ts";
import { createDemoModel, demoModelName } from "./create-demo-model.ts";

/**
 * The offline demo model, streaming at `PLANKIT_DEMO_TOKENS_PER_SECOND`
 * (45 when unset or not a positive number), named `plankit-demo (offline,
 * scripted)` with provider `demo`.
 *
 * @param env - the Worker's environment.
 * @returns the model and its name.
 *
 * @example
 * ```ts
 * const { model, name } = selectDemoModel({ PLANKIT_DEMO_TOKENS_PER_SECOND: "Infinity" });
 * ```
 */
export function selectDemoModel(env: WorkerEnv): SelectedModel {
  const rate = Number(env.PLANKIT_DEMO_TOKENS_PER_SECOND ?? "45");
  return { model: createDemoModel({ tokensPerSecond: rate > 0 ? rate : 45 }), name: demoModelName, provider: "demo" };
}
