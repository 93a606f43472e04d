/**
 * Runs vitest for the Node, the workerd or the end-to-end suite and reads its JSON report.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { RuntimeResult, TestOutcome } from "./runtime-result.ts";

interface VitestAssertion {
  ancestorTitles: string[];
  title: string;
  status: string;
  duration?: number | null;
  failureMessages?: string[];
}

interface VitestFileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults: VitestAssertion[];
}

const configs = { node: "vitest.config.ts", workerd: "vitest.workerd.config.ts", e2e: "vitest.e2e.config.ts" } as const;

function stripColours(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

/**
 * Runs `vitest run` with the runtime's config, keeping vitest's own console
 * output and writing a JSON report under `.tmp/`.
 *
 * @param runtime - `node` (`vitest.config.ts`), `workerd` (`vitest.workerd.config.ts`) or `e2e` (`vitest.e2e.config.ts`).
 * @param root - the repository root.
 * @param extraArguments - more vitest arguments (file filters, …).
 * @returns the run reduced to a {@link RuntimeResult}.
 * @example
 * ```ts
 * const result = await runVitest("node", process.cwd());
 * ```
 */
export async function runVitest(
  runtime: keyof typeof configs,
  root: string,
  extraArguments: string[] = [],
): Promise<RuntimeResult> {
  const started = Date.now();
  const outputDirectory = join(root, ".tmp");
  mkdirSync(outputDirectory, { recursive: true });
  const outputFile = join(outputDirectory, `vitest-${runtime}.json`);
  rmSync(outputFile, { force: true });
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const args = [
    vitest,
    "run",
    "--config",
    configs[runtime],
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${outputFile}`,
    ...extraArguments,
  ];
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
    child.on("error", () => resolve(1));
  });
  const result: RuntimeResult = { runtime, stepOk: exitCode === 0, files: [], tests: [], errors: [], durationMs: 0 };
  if (exitCode !== 0) result.errors.push(`vitest exited with code ${exitCode}`);
  if (!existsSync(outputFile)) {
    result.errors.push(`vitest wrote no JSON report (${relative(root, outputFile)})`);
  } else {
    const report = JSON.parse(readFileSync(outputFile, "utf8")) as { testResults: VitestFileResult[] };
    for (const fileResult of report.testResults) {
      const file = relative(root, fileResult.name).split(sep).join("/");
      result.files.push(file);
      if (fileResult.status === "failed" && fileResult.message) {
        result.errors.push(`${file}: ${stripColours(fileResult.message)}`);
      }
      for (const assertion of fileResult.assertionResults) {
        const outcome: TestOutcome = {
          name: [...assertion.ancestorTitles, assertion.title].join(" > "),
          file,
          status: assertion.status === "passed" ? "passed" : assertion.status === "failed" ? "failed" : "skipped",
          durationMs: Math.round((assertion.duration ?? 0) * 100) / 100,
        };
        if (assertion.failureMessages !== undefined && assertion.failureMessages.length > 0) {
          outcome.error = stripColours(assertion.failureMessages.join("\n"));
        }
        result.tests.push(outcome);
      }
    }
    result.files.sort();
  }
  result.durationMs = Date.now() - started;
  return result;
}
