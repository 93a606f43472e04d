/**
 * Turns the portable harness's report into a {@link RuntimeResult}.
 *
 * @module
 */
import type { HarnessReport } from "../../test/harness/runner.ts";
import type { RuntimeResult } from "./runtime-result.ts";

/**
 * Converts a harness report into the common result shape.
 *
 * @param runtime - `deno` or `chromium`.
 * @param report - what `runTests` returned in that runtime.
 * @param durationMs - wall time of the whole step.
 * @returns the common result; `stepOk` is true.
 * @example
 * ```ts
 * const result = toRuntimeResult("deno", report, 1200);
 * ```
 */
export function toRuntimeResult(
  runtime: "deno" | "chromium",
  report: HarnessReport,
  durationMs: number,
): RuntimeResult {
  const files = [...new Set(report.files.filter((file) => file.endsWith(".test.ts")))].sort();
  const errors = [...report.errors];
  // vitest fails a file that defines no test; so does this.
  for (const file of files) {
    if (!report.tests.some((test) => test.file === file)) errors.push(`${file}: no test found`);
  }
  return { runtime, stepOk: true, files, tests: report.tests.map((test) => ({ ...test })), errors, durationMs };
}

/**
 * A result for a runtime whose step failed before any report came back.
 *
 * @param runtime - the runtime.
 * @param message - why the step failed.
 * @param durationMs - wall time of the step.
 * @returns a failed result with no tests.
 * @example
 * ```ts
 * failedStep("chromium", "browser did not start", 300);
 * ```
 */
export function failedStep(runtime: RuntimeResult["runtime"], message: string, durationMs: number): RuntimeResult {
  return { runtime, stepOk: false, files: [], tests: [], errors: [message], durationMs };
}
