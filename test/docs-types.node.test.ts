/**
 * Every TypeScript block of the README and docs/ compiles as a user compiles it: imports of
 * `plankit` and its entries (those package.json exports) resolved with `paths` to the sources, the
 * repository's strict options (`tsconfig.json`: strict, exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, verbatimModuleSyntax) under `module: NodeNext`, with the DOM and
 * Node's types. One `tsc` run checks every block, and a canary file whose lines must each fail shows
 * that the options are in force. A block marked `// fragment: …` is left out (see `docs-blocks.ts`).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type CodeBlock, docBlocks, filesOf, isFragment, root, tsxBlocks } from "./docs-blocks.ts";

const folder = ".tmp/docs-types";
const canary = "canary.ts";

/** Lines that each fail to compile under the options, with the error they must give. */
const canaryLines: [code: string, error: string][] = [
  ['export { ToolRegistry } from "plankit";', ""],
  ['export { createScriptedModel } from "plankit/test";', ""],
  ['export type { PlankitErrorCode } from "plankit/errors";', "TS2307"], // not an entry of the package
  ["export const optional: { id?: string } = { id: undefined };", "TS2375"], // exactOptionalPropertyTypes
  ['export const first: string = ["a"][0];', "TS2322"], // noUncheckedIndexedAccess
  ["export const echo = (value) => value;", "TS7006"], // strict: noImplicitAny
  ['import { RuntimeEvent } from "plankit";', "TS1484"], // verbatimModuleSyntax: a type needs `import type`
];

/** One diagnostic of tsc. */
interface Diagnostic {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/**
 * `paths` for every entry of package.json's `exports`: `plankit` and `plankit/<entry>` to `src/`.
 *
 * @returns the compiler option.
 */
function entryPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, unknown> };
  const paths: Record<string, string[]> = {};
  for (const entry of Object.keys(manifest.exports)) {
    if (entry === "./package.json") continue;
    const name = entry === "." ? "index" : entry.slice(2);
    paths[entry === "." ? "plankit" : `plankit/${name}`] = [`../../src/${name}.ts`];
  }
  return paths;
}

/**
 * Reads tsc's `--pretty false` output: `file(line,column): error TSnnnn: message`, with the
 * indented lines that follow added to the message; a diagnostic without a file keeps `file` empty.
 *
 * @param output - what tsc printed.
 * @returns the diagnostics.
 */
function parseDiagnostics(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const text of output.split("\n")) {
    const located = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/u.exec(text);
    const bare = /^error (TS\d+): (.*)$/u.exec(text);
    if (located !== null) {
      const [, file = "", line = "0", column = "0", code = "", message = ""] = located;
      diagnostics.push({ file, line: Number(line), column: Number(column), code, message });
    } else if (bare !== null) {
      diagnostics.push({ file: "", line: 0, column: 0, code: bare[1] ?? "", message: bare[2] ?? "" });
    } else if (/^\s/u.test(text) && diagnostics.length > 0) {
      const last = diagnostics[diagnostics.length - 1];
      if (last !== undefined) last.message += `\n${text}`;
    }
  }
  return diagnostics;
}

/**
 * Runs the repository's tsc on a project.
 *
 * @param project - the tsconfig, relative to the root.
 * @returns the exit code and what tsc printed.
 */
function runTsc(project: string): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      `${root}node_modules/.bin/tsc`,
      ["-p", project, "--pretty", "false"],
      { cwd: root, encoding: "utf8", maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ exitCode, output: `${stdout}${stderr}` });
      },
    );
  });
}

const all = docBlocks();
const checked = all.filter((block) => !isFragment(block));

/**
 * The files of the `tsx` blocks (React components for a browser), each written under a folder of
 * its block, so that a block showing `app/page.tsx` and `app/run-view.tsx` imports one from the other.
 * They compile in a project of their own, as a bundled React app compiles them (`module: ESNext`,
 * `moduleResolution: Bundler`, `jsx: react-jsx`, extensionless relative imports), under the same
 * strict options and `paths`.
 */
const componentFolder = `${folder}/components`;
const components = tsxBlocks().flatMap((block) =>
  filesOf(block).map((file) => ({
    block,
    offset: file.offset,
    code: file.code,
    path: `${block.file.slice(0, -4)}/${file.path}`,
  })),
);

/**
 * Types of the one module a `tsx` block imports that the repository does not install (`next/dynamic`
 * of the Next.js example), as Next.js declares it, so that the rest of the block is checked.
 */
const standIns = "stand-ins.d.ts";
const standInTypes = `declare module "next/dynamic" {
  import type { ComponentType } from "react";
  export default function dynamic<P = object>(
    loader: () => Promise<ComponentType<P> | { default: ComponentType<P> }>,
    options?: { ssr?: boolean; loading?: () => unknown },
  ): ComponentType<P>;
}
`;
let result: { exitCode: number; diagnostics: Diagnostic[] } = { exitCode: -1, diagnostics: [] };

beforeAll(async () => {
  rmSync(`${root}${folder}`, { recursive: true, force: true });
  mkdirSync(`${root}${folder}`, { recursive: true });
  for (const block of checked) {
    // A relative import (`./worker/demo/…`) is read from the repository's root, where a reader runs it.
    const code = block.code.replace(/from "\.\/([^"]+)"/gu, (_whole, path: string) => `from "../../${path}"`);
    writeFileSync(`${root}${folder}/${block.file}`, code);
  }
  for (const component of components) {
    mkdirSync(dirname(`${root}${componentFolder}/${component.path}`), { recursive: true });
    writeFileSync(`${root}${componentFolder}/${component.path}`, component.code);
  }
  writeFileSync(`${root}${componentFolder}/${standIns}`, standInTypes);
  const componentPaths = Object.fromEntries(
    Object.entries(entryPaths()).map(([entry, [path = ""]]) => [entry, [`../${path}`]]),
  );
  const componentConfig = {
    extends: "../../../tsconfig.json",
    compilerOptions: {
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      types: [],
      jsx: "react-jsx",
      moduleDetection: "force",
      paths: componentPaths,
    },
    files: [...components.map((component) => component.path), standIns],
    include: [],
    exclude: [],
  };
  writeFileSync(`${root}${componentFolder}/tsconfig.json`, JSON.stringify(componentConfig, null, 2));
  writeFileSync(`${root}${folder}/${canary}`, canaryLines.map(([code]) => code).join("\n"));
  const tsconfig = {
    extends: "../../tsconfig.json",
    compilerOptions: {
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      types: ["node"],
      moduleDetection: "force",
      paths: entryPaths(),
    },
    files: [...checked.map((block) => block.file), canary],
    include: [],
    exclude: [],
  };
  writeFileSync(`${root}${folder}/tsconfig.json`, JSON.stringify(tsconfig, null, 2));
  const [blocks, tsx] = await Promise.all([
    runTsc(`${folder}/tsconfig.json`),
    components.length === 0 ? { exitCode: 0, output: "" } : runTsc(`${componentFolder}/tsconfig.json`),
  ]);
  result = {
    exitCode: blocks.exitCode,
    diagnostics: [...parseDiagnostics(blocks.output), ...parseDiagnostics(tsx.output)],
  };
}, 180_000);

/**
 * A diagnostic where a reader finds it: the page, its line and column, the code and the message.
 *
 * @param page - the Markdown page.
 * @param fence - the line of the block's opening fence.
 * @param diagnostic - the diagnostic in the block's file.
 * @returns one line (and tsc's elaboration below it).
 */
function located(page: string, fence: number, diagnostic: Diagnostic): string {
  return `${page}:${fence + diagnostic.line}:${diagnostic.column} ${diagnostic.code} ${diagnostic.message}`;
}

describe("every TypeScript block of the README and docs/ compiles under strict TypeScript", () => {
  it("leaves out only the rare blocks marked as fragments, none in the README", () => {
    expect(checked.length).toBeGreaterThanOrEqual(30);
    expect(all.filter((block) => isFragment(block) && block.page === "README.md")).toEqual([]);
    expect(all.length - checked.length).toBeLessThanOrEqual(2);
  });

  it("runs tsc with the options in force: each canary line fails with its error, and only those", () => {
    const found = result.diagnostics
      .filter((diagnostic) => diagnostic.file === `${folder}/${canary}`)
      .map((diagnostic) => `${diagnostic.line} ${diagnostic.code}`);
    const expected = canaryLines.flatMap(([, error], index) => (error === "" ? [] : [`${index + 1} ${error}`]));
    expect(found).toEqual(expected);
    expect(result.exitCode).not.toBe(0);
  });

  it("finds no error outside the blocks (the Worker's files are checked under Cloudflare's types elsewhere)", () => {
    const blockFiles = new Set([
      ...checked.map((block) => `${folder}/${block.file}`),
      ...components.map((component) => `${componentFolder}/${component.path}`),
      `${folder}/${canary}`,
    ]);
    const outside = result.diagnostics.filter(
      (diagnostic) => !blockFiles.has(diagnostic.file) && !diagnostic.file.startsWith("worker/"),
    );
    expect(
      outside.map((diagnostic) => `${diagnostic.file}:${diagnostic.line} ${diagnostic.code} ${diagnostic.message}`),
    ).toEqual([]);
  });

  for (const block of checked) {
    it(`${block.page}:${block.line} type-checks`, () => {
      const errors = result.diagnostics
        .filter((diagnostic) => diagnostic.file === `${folder}/${block.file}`)
        .map((diagnostic) => located(block.page, block.line, diagnostic));
      expect(errors).toEqual([]);
    });
  }

  const byBlock = new Map<CodeBlock, typeof components>();
  for (const component of components)
    byBlock.set(component.block, [...(byBlock.get(component.block) ?? []), component]);
  for (const [block, files] of byBlock) {
    it(`${block.page}:${block.line} (tsx: ${files.map((file) => file.path.split("/").slice(1).join("/")).join(", ")}) type-checks`, () => {
      const errors = files.flatMap((file) =>
        result.diagnostics
          .filter((diagnostic) => diagnostic.file === `${componentFolder}/${file.path}`)
          .map((diagnostic) => located(block.page, block.line + file.offset, diagnostic)),
      );
      expect(errors).toEqual([]);
    });
  }
});
