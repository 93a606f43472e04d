/**
 * Deploys the Worker with its model providers in modules of their own:
 * builds the web demo and the Worker (`buildWorker`), prints each module's
 * size and whether the Worker loads it at start-up, then runs `wrangler
 * deploy --no-bundle` on the build. Arguments pass through to wrangler:
 *
 *     npx node scripts/deploy.ts --dry-run --outdir .tmp/worker-upload
 *
 * (`wrangler deploy` alone also works: it bundles the providers into the one
 * module it uploads, where the Worker still initializes them only on first
 * use.)
 *
 * @module
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDemo } from "./lib/build-demo.ts";
import { buildWorker } from "./lib/build-worker.ts";
import { wranglerEnvironment } from "./lib/wrangler-environment.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
await buildDemo(root);
const directory = join(root, ".tmp", "worker-deploy");
const modules = await buildWorker(root, directory);
for (const module of modules)
  console.log(
    `${module.file.padEnd(44)} ${(module.bytes / 1024).toFixed(1).padStart(8)} KiB  ${module.atStartup ? "at start-up" : "on first use"}`,
  );
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const child = spawn(
  process.execPath,
  [wrangler, "deploy", join(directory, "index.js"), "--no-bundle", "--minify=false", ...process.argv.slice(2)],
  { cwd: root, env: wranglerEnvironment(), stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal === null ? 1 : 128);
});
