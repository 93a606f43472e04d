/**
 * `npm run test:e2e`: the web demo in headless Chromium against `wrangler
 * dev` (see `vitest.e2e.config.ts`), with the summary table. Screenshots go
 * to `test-results/e2e/`.
 *
 *     node scripts/test-e2e.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { runVitest } from "./lib/run-vitest.ts";
import { printSummary } from "./lib/summary.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
console.log("=== e2e ===\n");
const result = await runVitest("e2e", root);
process.exitCode = printSummary([result], []) ? 0 : 1;
