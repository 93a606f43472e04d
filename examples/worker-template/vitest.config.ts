import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      // vitest probes `node:inspector` at start-up; tests only.
      miniflare: { compatibilityFlags: ["enable_nodejs_inspector_module"] },
    }),
  ],
  test: { include: ["test/**/*.test.ts"] },
});
