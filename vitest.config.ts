import { defineConfig } from "vitest/config";

/**
 * The Node suite: every portable behaviour suite plus the Node-only ones
 * (`*.node.test.ts`). `vitest.workerd.config.ts` runs the portable suites in
 * workerd; `scripts/test-all.ts` adds Deno and Chromium.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "test/**/*.workerd.test.ts", "test/e2e/**", "test/bench/**"],
    environment: "node",
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
});
