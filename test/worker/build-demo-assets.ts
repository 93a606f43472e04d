/**
 * Global set-up of the workerd suite: builds the web demo into the Worker's
 * static assets directory, so `GET /` has something to serve.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { buildDemo } from "../../scripts/lib/build-demo.ts";

/**
 * Builds the demo (about 0.2 s) before the workerd pool starts.
 *
 * @returns when the build is done.
 * @example
 * ```ts
 * // vitest.workerd.config.ts
 * test: { globalSetup: ["./test/worker/build-demo-assets.ts"] }
 * ```
 */
export default async function setup(): Promise<void> {
  await buildDemo(fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, ""));
}
