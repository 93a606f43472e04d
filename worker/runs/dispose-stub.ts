/**
 * Letting go of RPC stubs.
 *
 * @module
 */
/**
 * Lets go of an RPC stub the Worker no longer needs (a Workflow instance),
 * so workerd does not warn that it was never disposed.
 *
 * @param stub - the stub, or anything else (left alone).
 *
 * @example
 * ```ts
 * const instance = await env.PLAN_WORKFLOW.get(runId);
 * try { await instance.terminate(); } finally { disposeStub(instance); }
 * ```
 */
export function disposeStub(stub: unknown): void {
  // Symbol.dispose, where the runtime has it (workerd does).
  const key = (Symbol as { dispose?: symbol }).dispose;
  if (key === undefined || typeof stub !== "object" || stub === null) return;
  const dispose = (stub as Record<symbol, unknown>)[key];
  if (typeof dispose === "function") {
    try {
      dispose.call(stub);
    } catch {
      // Already disposed.
    }
  }
}
