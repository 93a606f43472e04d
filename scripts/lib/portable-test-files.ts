/**
 * Which test files are portable behaviour suites.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

/**
 * Whether a test file (path relative to the repository root, `/`-separated)
 * is a portable behaviour suite: `test/**\/*.test.ts`, except Node-only and
 * workerd-only suites and the end-to-end and benchmark folders.
 *
 * @param file - a path relative to the repository root.
 * @returns `true` when the file runs in every runtime.
 * @example
 * ```ts
 * isPortableTestFile("test/json/parser.test.ts"); // true
 * isPortableTestFile("test/json/parser.node.test.ts"); // false
 * ```
 */
export function isPortableTestFile(file: string): boolean {
  return (
    file.startsWith("test/") &&
    file.endsWith(".test.ts") &&
    !file.endsWith(".node.test.ts") &&
    !file.endsWith(".workerd.test.ts") &&
    !file.startsWith("test/e2e/") &&
    !file.startsWith("test/bench/")
  );
}

/**
 * Lists the portable behaviour suites under `test/`, sorted.
 *
 * @param root - the repository root.
 * @returns paths relative to `root`, `/`-separated.
 * @example
 * ```ts
 * listPortableTestFiles(process.cwd()); // ["test/errors/plankit-error.test.ts", …]
 * ```
 */
export function listPortableTestFiles(root: string): string[] {
  const files = readdirSync(join(root, "test"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((file) => !file.includes("/node_modules/"));
  return files.filter(isPortableTestFile).sort();
}
