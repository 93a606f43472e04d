/**
 * Bundle-size budgets: what an application pays, minified and gzipped, for
 * each entry point it may import.
 *
 * @module
 */
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

/** One measured entry and its budget. */
interface SizeBudget {
  /** What is imported. */
  label: string;
  /** The module text an application would write. */
  entry: string;
  /** The largest allowed gzipped size, in bytes. */
  maxGzipBytes: number;
  /** Leave out the core modules the entry imports: measure only what a subpath entry adds to `plankit`. */
  beyondCore?: boolean;
  /** Leave out the modules of `src/ui/`: measure only what `plankit/react` adds to `plankit/ui`. */
  beyondUi?: boolean;
}

/** The budgets `npm test` enforces. The dependency (`valibot`) is included where an entry reaches them; `ai` and `react` are not. */
const budgets: SizeBudget[] = [
  {
    label: "typical: `AgentRuntime`, `LLMPlanner`, `ToolRegistry`",
    entry: 'export { AgentRuntime, LLMPlanner, ToolRegistry } from "./src/index.ts";',
    maxGzipBytes: 53.7 * 1024,
  },
  { label: "`plankit` (everything in it)", entry: 'export * from "./src/index.ts";', maxGzipBytes: 59.6 * 1024 },
  { label: "`plankit/json`", entry: 'export * from "./src/json.ts";', maxGzipBytes: 7.4 * 1024 },
  {
    label: "`createJsonStreamParser` alone",
    entry: 'export { createJsonStreamParser } from "./src/json.ts";',
    maxGzipBytes: 6.8 * 1024,
  },
  { label: "`plankit/plan`", entry: 'export * from "./src/plan.ts";', maxGzipBytes: 27.6 * 1024 },
  { label: "`plankit/tools`", entry: 'export * from "./src/tools.ts";', maxGzipBytes: 17.1 * 1024 },
  { label: "`plankit/events`", entry: 'export * from "./src/events.ts";', maxGzipBytes: 3 * 1024 },
  { label: "`plankit/decide`", entry: 'export * from "./src/decide.ts";', maxGzipBytes: 15 * 1024 },
  { label: "`plankit/openai`", entry: 'export * from "./src/openai.ts";', maxGzipBytes: 3.5 * 1024 },
  { label: "`plankit/test`", entry: 'export * from "./src/test.ts";', maxGzipBytes: 14.2 * 1024 },
  {
    label: "`plankit/ai` beyond the core, without `ai`",
    entry: 'export * from "./src/ai.ts";',
    maxGzipBytes: 6 * 1024,
    beyondCore: true,
  },
  { label: "`plankit/ui` (store and elements)", entry: 'export * from "./src/ui.ts";', maxGzipBytes: 12.4 * 1024 },
  {
    label: "`createRunStore` alone",
    entry: 'export { createRunStore } from "./src/ui/create-run-store.ts";',
    maxGzipBytes: 5 * 1024,
  },
  {
    label: "`plankit/react` beyond `plankit/ui`, without React",
    entry: 'export * from "./src/react.ts";',
    maxGzipBytes: 1024,
    beyondUi: true,
  },
];

/** Marks the imports of `src/react/` that reach into `src/ui/` as external: an application importing both entries shares them. */
const uiExternal: Plugin = {
  name: "ui-external",
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/ui\// }, (args) =>
      /[\\/]src[\\/]react$/u.test(args.resolveDir) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Marks the imports of `src/ai/` that leave that folder as external: an application importing both entries shares them. */
const coreExternal: Plugin = {
  name: "core-external",
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\// }, (args) =>
      /[\\/]src[\\/]ai$/u.test(args.resolveDir) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * Bundles each budget's entry for browsers (minified ESM, tree-shaken) and
 * compares its gzipped size with the budget.
 *
 * @param root - the repository root.
 * @returns whether every entry is within its budget; prints a table.
 * @example
 * ```ts
 * if (!(await checkSize(root))) process.exitCode = 1;
 * ```
 */
export async function checkSize(root: string): Promise<boolean> {
  let ok = true;
  console.log(`${"entry".padEnd(56)} min KiB  gzip KiB  budget KiB`);
  for (const budget of budgets) {
    const result = await build({
      stdin: { contents: budget.entry, resolveDir: root, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      external: ["ai", "react"],
      plugins: budget.beyondCore === true ? [coreExternal] : budget.beyondUi === true ? [uiExternal] : [],
      write: false,
      logLevel: "error",
    });
    const code = result.outputFiles[0]!.contents;
    const gzip = gzipSync(code, { level: 9 }).length;
    const within = gzip <= budget.maxGzipBytes;
    ok &&= within;
    const kib = (bytes: number) => (bytes / 1024).toFixed(1).padStart(8);
    console.log(
      `${budget.label.padEnd(56)}${kib(code.length)}  ${kib(gzip)}  ${kib(budget.maxGzipBytes)}${within ? "" : "  OVER BUDGET"}`,
    );
  }
  return ok;
}
