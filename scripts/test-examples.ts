/**
 * Runs the apps under `examples/` (all, or the ones named): builds the
 * package, runs `npm ci` in each example whose install is missing or out of
 * date, then its `npm test`. The last step of `npm test`.
 *
 *     node scripts/test-examples.ts [name…]
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { printExampleResults, runExamples } from "./lib/run-examples.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
console.log("=== examples ===");
process.exitCode = printExampleResults(await runExamples(root, process.argv.slice(2))) ? 0 : 1;
