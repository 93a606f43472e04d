/**
 * `npm start`: builds the web demo and runs `wrangler dev` — the demo and
 * the API on localhost, offline, with the demo model unless a model is
 * configured. Arguments pass through to `wrangler dev`:
 *
 *     npm start -- --port 8790
 *
 * @module
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDemo } from "./lib/build-demo.ts";
import { wranglerEnvironment } from "./lib/wrangler-environment.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const { bytes } = await buildDemo(root);
console.log(`Built the web demo (main.js ${(bytes / 1024).toFixed(1)} KiB); starting wrangler dev…`);
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const child = spawn(process.execPath, [wrangler, "dev", ...process.argv.slice(2)], {
  cwd: root,
  env: wranglerEnvironment(),
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal === null ? 1 : 128);
});
