/**
 * `npm run check:layers`: fails when a folder of `src/` imports from a
 * higher layer (see `scripts/lib/check-layers.ts`), naming file, line and import.
 *
 *     node scripts/check-layers.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { checkLayers, layerOrder } from "./lib/check-layers.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const problems = checkLayers(root);
for (const problem of problems) console.error(`${problem.file}:${problem.line} ${problem.message}`);
console.log(
  problems.length === 0
    ? `Layers hold: ${layerOrder.join(" → ")}.`
    : `${problems.length} import(s) against the layers.`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
