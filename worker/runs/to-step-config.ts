/**
 * A plan step's policy as a Workflow step's configuration.
 *
 * @module
 */

import type { StepCall } from "../../src/runtime.ts";
import type { DurableStepConfig } from "./durable-step.ts";

/**
 * Extra time the engine gives an attempt beyond the step's own limit, so the
 * runtime's timeout (which aborts the tool and reports the error) fires
 * first and the engine's only catches an attempt that hangs anyway.
 */
const engineTimeoutGraceMs = 1000;

/**
 * Maps the runtime's policy for a step onto `step.do`'s configuration:
 * `retries.limit` is the step's retries (its own `retries`, or the
 * runtime's for read-only, idempotent and `llm` steps, else 0: a
 * side-effecting step's callback runs again only after a restart, which is
 * what its start claim in `createDurableExecutor` tells apart),
 * `retries.delay` the backoff's `initialMs`, `retries.backoff`
 * `"exponential"` (the engine doubles the delay; a `factor` of 1 or less
 * maps to `"constant"`; there is no `maxMs` or jitter), and `timeout` the
 * step's time limit plus {@link engineTimeoutGraceMs}.
 *
 * @param call - the step's retries, time limit and backoff.
 * @returns the configuration.
 *
 * @example
 * ```ts
 * toStepConfig({ retries: 2, timeoutMs: 20_000, backoff: { initialMs: 250 } });
 * // { retries: { limit: 2, delay: 250, backoff: "exponential" }, timeout: 21000 }
 * ```
 */
export function toStepConfig(call: Pick<StepCall, "retries" | "timeoutMs" | "backoff">): DurableStepConfig {
  const delay = Math.max(0, Math.round(call.backoff.initialMs ?? 100));
  return {
    retries: { limit: call.retries, delay, backoff: (call.backoff.factor ?? 2) <= 1 ? "constant" : "exponential" },
    timeout: Math.ceil(call.timeoutMs) + engineTimeoutGraceMs,
  };
}
