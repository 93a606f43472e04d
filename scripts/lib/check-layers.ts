/**
 * The layers of `src/`: every import from one folder into another must go
 * down the declared order, so data flows one way and no two folders import
 * each other.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * The folders of `src/`, lowest first: a folder may import only from those
 * before it. The entry files at the root of `src/` may import anything.
 */
export const layerOrder = [
  "errors",
  "shared",
  "json",
  "model",
  "plan",
  "tools",
  "validate",
  "events",
  "ui",
  "react",
  "planner",
  "runtime",
  "decide",
  "openai",
  "ai",
] as const;

/**
 * Folders held to a narrower diet than the order allows: the front-end
 * layers stay small and framework-free, so `ui/` reads only events (and the
 * error and helper folders below them), and `react/` only `ui/`; the decision
 * engine and the Chat Completions adapter stand beside the planner and the
 * runtime, never on them.
 */
const allowedImports: Readonly<Partial<Record<string, readonly string[]>>> = {
  ui: ["errors", "shared", "events"],
  react: ["ui"],
  decide: ["errors", "shared", "json", "model", "plan", "tools", "validate", "events"],
  openai: ["errors", "shared", "json", "model", "events"],
};

/** One import that goes against the order, or from a folder the order does not name. */
export interface LayerProblem {
  /** The importing file, relative to the root. */
  file: string;
  /** Its 1-based line. */
  line: number;
  /** What it says. */
  message: string;
}

/**
 * Lists the `.ts` files below a folder.
 *
 * @param directory - the folder.
 * @returns absolute paths.
 */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The top folder of a path below `src/`, or `""` for a file at its root.
 *
 * @param source - the `src/` folder.
 * @param path - a path below it.
 * @returns the folder's name.
 */
function layerOf(source: string, path: string): string {
  const parts = relative(source, path).split(sep);
  return parts.length > 1 ? (parts[0] ?? "") : "";
}

/**
 * Checks every relative import (static, `export … from` and `import()`) of
 * every file in `src/` against {@link layerOrder}.
 *
 * @param root - the repository root.
 * @returns the problems, in file order; empty when the layers hold.
 *
 * @example
 * ```ts
 * for (const problem of checkLayers(root)) console.error(`${problem.file}:${problem.line} ${problem.message}`);
 * ```
 */
export function checkLayers(root: string): LayerProblem[] {
  const source = join(root, "src");
  const rank = new Map<string, number>(layerOrder.map((name, index) => [name, index]));
  const problems: LayerProblem[] = [];
  const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gmu;
  for (const file of sourceFiles(source).sort()) {
    const from = layerOf(source, file);
    const text = readFileSync(file, "utf8");
    const where = relative(root, file).split(sep).join("/");
    if (from !== "" && !rank.has(from)) {
      problems.push({
        file: where,
        line: 1,
        message: `folder "src/${from}" is not in the declared layer order (scripts/lib/check-layers.ts)`,
      });
      continue;
    }
    for (const match of text.matchAll(importPattern)) {
      const target = layerOf(source, resolve(dirname(file), match[1] ?? ""));
      if (from === "" || target === from) continue;
      const line = text.slice(0, match.index).split("\n").length;
      if (target === "") {
        problems.push({
          file: where,
          line,
          message: `src/${from} imports the entry file "${match[1]}"; import the module itself`,
        });
      } else if (!rank.has(target)) {
        problems.push({
          file: where,
          line,
          message: `imports "${match[1]}" from folder "src/${target}", which is not in the declared layer order`,
        });
      } else if ((rank.get(target) ?? 0) > (rank.get(from) ?? 0)) {
        problems.push({
          file: where,
          line,
          message: `src/${from} imports "${match[1]}" from src/${target}, a higher layer (order: ${layerOrder.join(" → ")})`,
        });
      } else if (allowedImports[from] !== undefined && !allowedImports[from].includes(target)) {
        problems.push({
          file: where,
          line,
          message: `src/${from} imports "${match[1]}" from src/${target}; src/${from} may import only from ${allowedImports[from].map((name) => `src/${name}`).join(", ")}`,
        });
      }
    }
  }
  problems.push(...checkConsumers(root, importPattern));
  problems.push(...checkDemoBoundary(root, importPattern));
  return problems;
}

/** The folders that consume plankit as its users do, through the entry files at the root of `src/` only. */
const consumerFolders = ["worker", "web-demo"] as const;

/**
 * Checks that the Worker and the demo import from `src/` only its entry
 * files (the package's public entries), never a module behind them.
 *
 * @param root - the repository root.
 * @param importPattern - the pattern of a relative import.
 * @returns the problems, in file order.
 */
function checkConsumers(root: string, importPattern: RegExp): LayerProblem[] {
  const source = join(root, "src");
  const problems: LayerProblem[] = [];
  for (const folder of consumerFolders) {
    const directory = join(root, folder);
    let files: string[];
    try {
      files = sourceFiles(directory).filter(
        (file) => !file.includes(`${sep}node_modules${sep}`) && !file.includes(`${sep}dist${sep}`),
      );
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(importPattern)) {
        const target = resolve(dirname(file), match[1] ?? "");
        const inside = relative(source, target);
        if (inside.startsWith("..") || !inside.includes(sep)) continue;
        const line = text.slice(0, match.index).split("\n").length;
        problems.push({
          file: relative(root, file).split(sep).join("/"),
          line,
          message: `${folder}/ imports "${match[1]}", a module behind plankit's entries; import its public entry (src/index.ts, src/plan.ts, …)`,
        });
      }
    }
  }
  return problems;
}

/** The Worker's entry, the one file outside `worker/demo/` that composes the core Worker with the demo. */
const workerEntry = "worker/index.ts";

/**
 * Checks that the core Worker knows nothing of the demo: no file of
 * `worker/` outside `worker/demo/` imports from `worker/demo/`, except
 * {@link workerEntry}, which gives the demo's options to the core.
 *
 * @param root - the repository root.
 * @param importPattern - the pattern of a relative import.
 * @returns the problems, in file order.
 */
function checkDemoBoundary(root: string, importPattern: RegExp): LayerProblem[] {
  const worker = join(root, "worker");
  const demo = join(worker, "demo");
  let files: string[];
  try {
    files = sourceFiles(worker);
  } catch {
    return [];
  }
  const problems: LayerProblem[] = [];
  for (const file of files.sort()) {
    const where = relative(root, file).split(sep).join("/");
    if (where === workerEntry || !relative(demo, file).startsWith("..")) continue;
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const inside = relative(demo, resolve(dirname(file), match[1] ?? ""));
      if (inside.startsWith("..")) continue;
      const line = text.slice(0, match.index).split("\n").length;
      const message = `imports "${match[1]}" from worker/demo/; the core Worker takes what the demo provides through createWorker's options, given in ${workerEntry}`;
      problems.push({ file: where, line, message });
    }
  }
  return problems;
}
