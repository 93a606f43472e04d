/**
 * Runs the portable bundle in Deno (from the `deno` npm package) in one process.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessReport } from "../../test/harness/runner.ts";
import type { PortableBundle } from "./build-portable-bundle.ts";
import { failedStep, toRuntimeResult } from "./harness-report.ts";
import type { RuntimeResult } from "./runtime-result.ts";

const reportMarker = "@@portable-report@@";

/**
 * Runs every portable suite in the bundle under Deno with read access to the
 * bundle directory only (plus environment reads, which `@vitest/expect`'s
 * colour detection performs), and collects the JSON report it prints.
 *
 * @param root - the repository root.
 * @param bundle - the bundle from `buildPortableBundle`.
 * @returns the run as a {@link RuntimeResult}.
 * @example
 * ```ts
 * const result = await runDeno(process.cwd(), await buildPortableBundle(process.cwd()));
 * ```
 */
export async function runDeno(root: string, bundle: PortableBundle): Promise<RuntimeResult> {
  const started = Date.now();
  const main = join(bundle.directory, "deno-main.js");
  writeFileSync(
    main,
    [
      'import { runTests } from "./portable.js";',
      'const report = await runTests({ runtime: "deno" });',
      `console.log(${JSON.stringify(reportMarker)} + JSON.stringify(report));`,
      "",
    ].join("\n"),
  );
  const deno = join(root, "node_modules", ".bin", "deno");
  const args = [
    "run",
    "--no-config",
    "--no-lock",
    "--no-prompt",
    "--allow-env",
    `--allow-read=${bundle.directory}`,
    main,
  ];
  let stdout = "";
  const exit = await new Promise<{ code: number; error?: string }>((resolve) => {
    const child = spawn(deno, args, {
      cwd: bundle.directory,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
    });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128) }));
    child.on("error", (error) => resolve({ code: 1, error: error.message }));
  });
  const durationMs = Date.now() - started;
  let report: HarnessReport | undefined;
  for (const line of stdout.split("\n")) {
    if (line.startsWith(reportMarker)) report = JSON.parse(line.slice(reportMarker.length)) as HarnessReport;
    else if (line !== "") console.log(line);
  }
  if (report === undefined) {
    return failedStep(
      "deno",
      `deno exited with code ${exit.code} without a report${exit.error ? `: ${exit.error}` : ""}`,
      durationMs,
    );
  }
  const result = toRuntimeResult("deno", report, durationMs);
  if (exit.code !== 0) {
    result.stepOk = false;
    result.errors.push(`deno exited with code ${exit.code}`);
  }
  return result;
}
