/**
 * Runs the test suite of the runtimes named on the command line
 * (`node`, `workerd`, `deno`, `chromium`) and prints the summary table.
 *
 *     node scripts/test-runtime.ts deno chromium
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { listPortableTestFiles } from "./lib/portable-test-files.ts";
import { type Runtime, runRuntime, runtimes } from "./lib/run-runtime.ts";
import type { RuntimeResult } from "./lib/runtime-result.ts";
import { printSummary } from "./lib/summary.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(runtimes as readonly string[]).includes(name));
if (requested.length === 0 || unknown.length > 0) {
  console.error(
    `usage: node scripts/test-runtime.ts <${runtimes.join("|")}>...${unknown.length > 0 ? ` (unknown: ${unknown.join(", ")})` : ""}`,
  );
  process.exit(2);
}
const state = {};
const results: RuntimeResult[] = [];
for (const runtime of requested as Runtime[]) results.push(await runRuntime(runtime, root, state));
process.exitCode = printSummary(results, listPortableTestFiles(root)) ? 0 : 1;
