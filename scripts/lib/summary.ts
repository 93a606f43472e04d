/**
 * The end-of-run table and the pass/fail verdict across runtimes.
 *
 * @module
 */
import type { RuntimeResult } from "./runtime-result.ts";

function pad(text: string | number, width: number): string {
  return String(text).padEnd(width);
}

function firstLines(text: string, count: number): string {
  // Stack frames say little here; vitest's own output above has them.
  const lines = text.split("\n").filter((line) => !/^\s+at /.test(line));
  return lines.slice(0, count).join("\n") + (lines.length > count ? "\n…" : "");
}

/**
 * Prints one row per runtime (files, tests, passed, failed, skipped), then
 * every failure, and decides whether the run passed: every step succeeded, no
 * test failed or was skipped, every runtime ran at least one test, and every
 * portable suite ran in every runtime.
 *
 * @param results - one result per runtime that was run.
 * @param portableFiles - the portable suites every runtime must have run.
 * @returns `true` when the run passed.
 * @example
 * ```ts
 * const ok = printSummary([nodeResult, denoResult], listPortableTestFiles(root));
 * process.exitCode = ok ? 0 : 1;
 * ```
 */
export function printSummary(results: RuntimeResult[], portableFiles: string[]): boolean {
  const problems: string[] = [];
  const header = `${pad("runtime", 10)}${pad("files", 7)}${pad("tests", 7)}${pad("passed", 8)}${pad("failed", 8)}${pad("skipped", 9)}time`;
  const rows = results.map((result) => {
    const count = (status: string) => result.tests.filter((test) => test.status === status).length;
    return `${pad(result.runtime, 10)}${pad(result.files.length, 7)}${pad(result.tests.length, 7)}${pad(count("passed"), 8)}${pad(count("failed"), 8)}${pad(count("skipped"), 9)}${(result.durationMs / 1000).toFixed(1)}s`;
  });
  for (const result of results) {
    const prefix = `[${result.runtime}]`;
    if (!result.stepOk && result.errors.length === 0) problems.push(`${prefix} the step failed`);
    for (const error of result.errors) problems.push(`${prefix} ${firstLines(error, 12)}`);
    if (result.tests.length === 0) problems.push(`${prefix} ran 0 tests`);
    for (const test of result.tests) {
      if (test.status === "failed") {
        problems.push(
          `${prefix} FAIL ${test.file} > ${test.name}\n    ${firstLines(test.error ?? "(no message)", 12).replaceAll("\n", "\n    ")}`,
        );
      } else if (test.status === "skipped") {
        problems.push(`${prefix} SKIPPED ${test.file} > ${test.name} (skipped tests are not allowed)`);
      }
    }
    const ran = new Set(result.files);
    // The end-to-end row runs its own suite, not the portable ones.
    const missing = result.runtime === "e2e" ? [] : portableFiles.filter((file) => !ran.has(file));
    if (result.files.length === 0 && missing.length > 0) {
      problems.push(`${prefix} none of the ${missing.length} portable suites ran`);
    } else {
      for (const file of missing) problems.push(`${prefix} portable suite ${file} did not run`);
    }
  }
  console.log(`\n${header}\n${"-".repeat(header.length + 4)}\n${rows.join("\n")}\n`);
  if (problems.length > 0) {
    console.log(`${problems.length} problem(s):\n\n${problems.join("\n\n")}\n`);
    return false;
  }
  console.log("All runtimes passed.\n");
  return true;
}
