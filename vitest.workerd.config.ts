import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The workerd suite: the portable behaviour suites and `*.workerd.test.ts`,
 * run inside the Workers runtime with the Worker from `wrangler.toml`.
 */
export default defineConfig({
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
