import { readFileSync } from "node:fs";

/**
 * Reads the version of an installed package from its `package.json` in the
 * repository's `node_modules`, for labels that name what was measured.
 *
 * @param name - the package name, scoped or not.
 * @returns the `version` field.
 * @example
 * ```ts
 * readPackageVersion("jsonriver"); // "1.1.1"
 * ```
 */
export function readPackageVersion(name: string): string {
  const url = new URL(`../../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}
