/**
 * `npm run build:demo`: bundles the web demo into `web-demo/dist/`, the
 * directory wrangler serves as static assets.
 *
 *     node scripts/build-demo.ts
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { buildDemo } from "./lib/build-demo.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const started = Date.now();
const { directory, bytes } = await buildDemo(root);
console.log(
  `Built the web demo into ${directory} (main.js ${(bytes / 1024).toFixed(1)} KiB) in ${Date.now() - started} ms.`,
);
