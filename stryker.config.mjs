// StrykerJS configuration for `npm run mutate -- <src/file.ts[:start-end]>`
// (scripts/mutate.ts picks the mutated files and the test files).

// Options: node_modules/@stryker-mutator/core/schema/stryker-schema.json.
export default {
  testRunner: "vitest",
  // scripts/mutate.ts passes the test files that speak for the module; related-file
  // discovery would pull in every suite that reaches the module through the runtime.
  vitest: { configFile: "vitest.config.ts", related: false },
  coverageAnalysis: "perTest",
  // The machine's cores are shared; one test runner at a time.
  concurrency: 1,
  tempDirName: ".tmp/stryker",
  cleanTempDir: "always",
  // Stryker rewrites the sandbox's tsconfig with the TypeScript compiler API, which the
  // native TypeScript 7 compiler does not expose. The sandbox sits inside the repository,
  // so no path of tsconfig.json leaves it and nothing needs rewriting: point Stryker at
  // a file that does not exist and it leaves tsconfig.json as it is.
  tsconfigFile: ".tmp/no-tsconfig-rewrite.json",
  ignorePatterns: ["dist", "docs", "web-demo", "worker", ".wrangler", "test-results", "test/e2e", "test/bench"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: ".tmp/mutation/index.html" },
  jsonReporter: { fileName: ".tmp/mutation/report.json" },
  clearTextReporter: { allowColor: false, logTests: false },
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 85, break: null },
};
