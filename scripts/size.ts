/**
 * `npm run size`: the bundle-size budgets (see `scripts/lib/check-size.ts`).
 *
 *     node scripts/size.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { checkSize } from "./lib/check-size.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
process.exitCode = (await checkSize(root)) ? 0 : 1;
