/**
 * `npm test`: type checks, the layer order of `src/`, lint and format (Biome),
 * unused code (knip), the package build and lint, the npm and JSR publish dry
 * runs, bundle-size budgets, then
 * every suite in Node, workerd, Deno and Chromium, then the end-to-end suite (the web demo in Chromium against
 * `wrangler dev`), then the apps under `examples/` (each its own `npm ci` and
 * `npm test`), then one summary table. Exits non-zero when any step failed, any
 * test failed, any example failed, a runtime ran no tests, or a portable suite did not run in
 * every runtime.
 *
 *     node scripts/test-all.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { checkLayers } from "./lib/check-layers.ts";
import { checkLint } from "./lib/check-lint.ts";
import { checkPackage } from "./lib/check-package.ts";
import { checkPublish } from "./lib/check-publish.ts";
import { checkSize } from "./lib/check-size.ts";
import { checkUnused } from "./lib/check-unused.ts";
import { listPortableTestFiles } from "./lib/portable-test-files.ts";
import { printExampleResults, runExamples } from "./lib/run-examples.ts";
import { runRuntime, runtimes } from "./lib/run-runtime.ts";
import { runVitest } from "./lib/run-vitest.ts";
import type { RuntimeResult } from "./lib/runtime-result.ts";
import { printSummary } from "./lib/summary.ts";
import { typecheck } from "./lib/typecheck-projects.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const started = Date.now();

console.log("=== typecheck ===\n");
const failedProjects = await typecheck(root);
console.log("\n=== layers ===\n");
const layerProblems = checkLayers(root);
for (const problem of layerProblems) console.log(`${problem.file}:${problem.line} ${problem.message}`);
console.log(layerProblems.length === 0 ? "Layers hold." : `${layerProblems.length} import(s) against the layers.`);
console.log("\n=== lint and format ===\n");
const lintOk = checkLint(root);
console.log("\n=== unused code ===\n");
const unusedOk = checkUnused(root);
console.log("\n=== package, publish and bundle size ===\n");
const sizeOk = (await checkPackage(root)) && checkPublish(root) && (await checkSize(root));

const state = {};
const results: RuntimeResult[] = [];
for (const runtime of runtimes) results.push(await runRuntime(runtime, root, state));
console.log("\n=== e2e ===\n");
results.push(await runVitest("e2e", root));
console.log("\n=== examples ===");
const examplesOk = printExampleResults(await runExamples(root));

const testsPassed = printSummary(results, listPortableTestFiles(root));
console.log(failedProjects.length === 0 ? "Type checks passed." : `Type checks FAILED: ${failedProjects.join(", ")}`);
console.log(
  sizeOk
    ? "Package lint, publish dry runs and bundle sizes passed."
    : "Package lint, publish dry runs or bundle sizes FAILED (see above).",
);
console.log(`Total time ${((Date.now() - started) / 1000).toFixed(1)}s.`);
console.log(layerProblems.length === 0 ? "Layers hold." : "Layers FAILED (see above).");
console.log(unusedOk ? "Nothing unused." : "Unused code FAILED (see above).");
console.log(lintOk ? "Lint and format hold." : "Lint or format FAILED (see above).");
console.log(examplesOk ? "Examples passed." : "Examples FAILED (see above).");
process.exitCode =
  testsPassed && failedProjects.length === 0 && sizeOk && unusedOk && lintOk && layerProblems.length === 0 && examplesOk
    ? 0
    : 1;
