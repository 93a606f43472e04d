/**
 * Type-checks the core, the Worker, the web demo, the tests and these scripts.
 *
 *     node scripts/typecheck.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { typecheck } from "./lib/typecheck-projects.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const failed = await typecheck(root);
process.exitCode = failed.length === 0 ? 0 : 1;
