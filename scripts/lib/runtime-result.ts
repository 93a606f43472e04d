/**
 * The common shape every runtime's test run is reduced to.
 *
 * @module
 */

/** One test's outcome in one runtime. */
export interface TestOutcome {
  /** Suite names and test name joined with " > ". */
  name: string;
  /** Test file relative to the repository root. */
  file: string;
  status: "passed" | "failed" | "skipped";
  durationMs: number;
  error?: string;
}

/** What one runtime's run produced. */
export interface RuntimeResult {
  runtime: "node" | "workerd" | "deno" | "chromium" | "e2e";
  /** Whether the step itself succeeded (process exit code, build, launch). */
  stepOk: boolean;
  /** Test files that ran, relative to the repository root. */
  files: string[];
  tests: TestOutcome[];
  /** Failures outside single tests (load errors, hooks, unhandled rejections, crashes). */
  errors: string[];
  durationMs: number;
}
