/**
 * A tool that runs until it is aborted, for disconnect tests.
 *
 * @module
 */
import { ToolRegistry } from "../../src/index.ts";

/**
 * A registry with one read-only tool, `wait_forever`, that never settles
 * on its own and rejects when its signal fires.
 *
 * @returns the registry, and what happened to the tool so far.
 */
export function createHangingTool(): { registry: ToolRegistry; state: { started: boolean; aborted: boolean } } {
  const state = { started: false, aborted: false };
  const registry = new ToolRegistry().register({
    name: "wait_forever",
    description: "Waits until aborted",
    annotations: { readOnlyHint: true },
    execute: (_args, { signal }) =>
      new Promise((_, reject) => {
        state.started = true;
        signal?.addEventListener("abort", () => {
          state.aborted = true;
          reject(new Error("aborted"));
        });
      }),
  });
  return { registry, state };
}
