/**
 * Runs one runtime's suite by name.
 *
 * @module
 */
import { buildPortableBundle, type PortableBundle } from "./build-portable-bundle.ts";
import { failedStep } from "./harness-report.ts";
import { runChromium } from "./run-chromium.ts";
import { runDeno } from "./run-deno.ts";
import { runVitest } from "./run-vitest.ts";
import type { RuntimeResult } from "./runtime-result.ts";

/** The runtimes, in the order `npm test` runs them. */
export const runtimes = ["node", "workerd", "deno", "chromium"] as const;

/** A runtime name. */
export type Runtime = (typeof runtimes)[number];

/**
 * Runs one runtime. Deno and Chromium share one bundle, built on first use
 * and cached in `state`.
 *
 * @param runtime - which runtime.
 * @param root - the repository root.
 * @param state - holds the bundle (or its build error) between calls.
 * @returns the runtime's result; a failed build becomes a failed step.
 * @example
 * ```ts
 * const state = {};
 * for (const runtime of runtimes) results.push(await runRuntime(runtime, root, state));
 * ```
 */
export async function runRuntime(
  runtime: Runtime,
  root: string,
  state: { bundle?: Promise<PortableBundle> },
): Promise<RuntimeResult> {
  console.log(`\n=== ${runtime} ===\n`);
  if (runtime === "node" || runtime === "workerd") return runVitest(runtime, root);
  const started = Date.now();
  state.bundle ??= buildPortableBundle(root);
  let bundle: PortableBundle;
  try {
    bundle = await state.bundle;
  } catch (error) {
    return failedStep(
      runtime,
      `Building the portable bundle failed: ${error instanceof Error ? error.message : String(error)}`,
      Date.now() - started,
    );
  }
  return runtime === "deno" ? runDeno(root, bundle) : runChromium(bundle);
}
