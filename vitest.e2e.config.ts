import { defineConfig } from "vitest/config";

/**
 * The end-to-end suite: the web demo in headless Chromium against
 * `wrangler dev`, started by the suite on a free port. Run by `npm run
 * test:e2e` and as the last step of `npm test`; screenshots go to
 * `test-results/e2e/`.
 */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
