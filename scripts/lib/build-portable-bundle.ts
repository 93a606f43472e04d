/**
 * Bundles every portable behaviour suite, with the "vitest" import replaced
 * by the portable harness in `test/harness/`, into one browser-platform ESM
 * file that Deno and Chromium load.
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { build, type Plugin } from "esbuild";
import { isPortableTestFile, listPortableTestFiles } from "./portable-test-files.ts";

/** Names a portable suite may import from "vitest"; anything else fails the build. */
const vitestExports = ["describe", "it", "test", "expect", "beforeEach", "afterEach", "beforeAll", "afterAll"];

/** vitest features the harness does not implement, found by a scan of the source. */
const unsupported: { pattern: RegExp; what: string }[] = [
  {
    pattern:
      /\b(?:describe|it|test)\s*\.\s*(?:skip|only|todo|each|for|concurrent|sequential|skipIf|runIf|fails|extend|scoped)\b/,
    what: "modifier (.skip/.only/.each/…)",
  },
  { pattern: /\bexpect\s*\.\s*(?:soft|poll|addSnapshotSerializer)\b/, what: "expect.soft/poll/snapshot serializer" },
  {
    pattern: /\.\s*to(?:Match|Throw)(?:Inline|File)?Snapshot\b|\.toMatchSnapshot\b|\.toThrowErrorMatchingSnapshot\b/,
    what: "snapshot matcher",
  },
  {
    pattern:
      /\bto(?:Have)?(?:BeenCalled|BeenCalledWith|BeenCalledTimes|BeenLastCalledWith|BeenNthCalledWith|Returned|ReturnedWith|ReturnedTimes)\b/,
    what: "mock matcher",
  },
];

/** Where the bundle went. */
export interface PortableBundle {
  /** Directory holding `portable.js`. */
  directory: string;
  /** Absolute path of `portable.js`. */
  file: string;
  /** The portable suites it contains, relative to the repository root. */
  testFiles: string[];
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

function harnessPlugin(root: string, testFiles: string[]): Plugin {
  const runner = join(root, "test", "harness", "runner.ts");
  return {
    name: "portable-harness",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^portable-entry$/ }, () => ({ path: "entry", namespace: "portable-entry" }));
      pluginBuild.onLoad({ filter: /.*/, namespace: "portable-entry" }, () => ({
        // Each import evaluates one suite, in order; the harness records which
        // file registered each test through the per-file "vitest" module.
        contents: [
          ...testFiles.map((file) => `import ${JSON.stringify(join(root, file))};`),
          `export { runTests } from ${JSON.stringify(runner)};`,
        ].join("\n"),
        resolveDir: root,
        loader: "js",
      }));
      // package.json says "sideEffects": false, but a suite is nothing but side effects.
      pluginBuild.onResolve({ filter: /\.test\.ts$/, namespace: "portable-entry" }, (args) => ({
        path: args.path,
        sideEffects: true,
      }));
      pluginBuild.onResolve({ filter: /^vitest$/ }, (args) => ({
        path: toPosix(relative(root, args.importer)),
        namespace: "portable-vitest",
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: "portable-vitest" }, (args) => ({
        contents: [
          `import { createTestApi } from ${JSON.stringify(runner)};`,
          `export const { ${vitestExports.join(", ")} } = createTestApi(${JSON.stringify(args.path)});`,
        ].join("\n"),
        resolveDir: root,
        loader: "js",
      }));
      pluginBuild.onResolve({ filter: /^vitest\// }, (args) => ({
        errors: [
          {
            text: `"${args.path}" is not available in portable suites (imported by ${toPosix(relative(root, args.importer))})`,
          },
        ],
      }));
      pluginBuild.onLoad({ filter: /\.test\.ts$/ }, (args) => {
        const file = toPosix(relative(root, args.path));
        const source = readFileSync(args.path, "utf8");
        if (!isPortableTestFile(file)) {
          return { errors: [{ text: `${file} is not a portable suite and cannot be imported by one` }] };
        }
        const problems = unsupported.filter(({ pattern }) => pattern.test(source));
        if (problems.length > 0) {
          return {
            errors: problems.map(({ what }) => ({
              text: `${file} uses a vitest feature the portable harness does not support: ${what}`,
            })),
          };
        }
        return { contents: source, loader: "ts" };
      });
    },
  };
}

/**
 * Builds `.tmp/portable/portable.js`, exporting `runTests` from the harness
 * after evaluating every portable suite.
 *
 * @param root - the repository root.
 * @returns where the bundle is and which suites it holds.
 * @example
 * ```ts
 * const bundle = await buildPortableBundle(process.cwd());
 * ```
 */
export async function buildPortableBundle(root: string): Promise<PortableBundle> {
  const testFiles = listPortableTestFiles(root);
  const directory = join(root, ".tmp", "portable");
  mkdirSync(directory, { recursive: true });
  const file = join(directory, "portable.js");
  await build({
    absWorkingDir: root,
    entryPoints: ["portable-entry"],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    tsconfig: join(root, "test", "tsconfig.json"),
    logLevel: "warning",
    plugins: [harnessPlugin(root, testFiles)],
  });
  writeFileSync(
    join(directory, "index.html"),
    '<!doctype html>\n<meta charset="utf-8">\n<title>plankit portable tests</title>\n',
  );
  return { directory, file, testFiles };
}
