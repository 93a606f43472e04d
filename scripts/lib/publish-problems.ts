/**
 * What would be wrong with a release: package.json and jsr.json out of step,
 * a changelog without the version, a packed file list missing an entry.
 *
 * @module
 */

/** The fields of package.json the release reads. */
export interface PackageManifest {
  name?: unknown;
  version?: unknown;
  exports?: unknown;
}

/** The fields of jsr.json the release reads. */
export interface JsrManifest {
  name?: unknown;
  version?: unknown;
  exports?: unknown;
}

/** Files npm packs whatever `files` says, and the ones the release adds to `dist/` and `src/`. */
const packedTopLevel = new Set(["package.json", "README.md", "LICENSE", "CHANGELOG.md"]);

/**
 * The package's entries as `subpath → file`, from the `default` condition of
 * package.json's exports (`./package.json` left out).
 *
 * @param exports - package.json's `exports`.
 * @returns the entries.
 */
function npmEntries(exports: unknown): Map<string, string> {
  const entries = new Map<string, string>();
  if (typeof exports !== "object" || exports === null) return entries;
  for (const [subpath, target] of Object.entries(exports)) {
    if (subpath === "./package.json") continue;
    const file = typeof target === "string" ? target : (target as { default?: unknown }).default;
    if (typeof file === "string") entries.set(subpath, file);
  }
  return entries;
}

/**
 * Problems between package.json, jsr.json and the changelog: the versions
 * differ, jsr.json's name is not a scoped JSR name, an entry of one is
 * missing from the other, a JSR entry is not the TypeScript source of the npm
 * entry (`./dist/x.js` ↔ `./src/x.ts`), or the changelog has no `## <version>`
 * section.
 *
 * @param pkg - package.json.
 * @param jsr - jsr.json.
 * @param changelog - CHANGELOG.md's text.
 * @returns one message per problem, naming the file, the field and the values.
 *
 * @example
 * ```ts
 * manifestProblems({ version: "0.1.0" }, { version: "0.2.0" }, "## 0.1.0");
 * // → ['jsr.json version "0.2.0" differs from package.json version "0.1.0"', …]
 * ```
 */
export function manifestProblems(pkg: PackageManifest, jsr: JsrManifest, changelog: string): string[] {
  const problems: string[] = [];
  if (typeof pkg.version !== "string" || pkg.version === "") problems.push("package.json has no version");
  else if (jsr.version !== pkg.version)
    problems.push(`jsr.json version ${JSON.stringify(jsr.version)} differs from package.json version "${pkg.version}"`);
  if (typeof jsr.name !== "string" || !/^@[a-z0-9-]+\/[a-z0-9-]+$/.test(jsr.name))
    problems.push(`jsr.json name ${JSON.stringify(jsr.name)} is not a JSR package name (@scope/name)`);
  const npm = npmEntries(pkg.exports);
  const deno =
    typeof jsr.exports === "object" && jsr.exports !== null ? Object.entries(jsr.exports) : ([] as [string, unknown][]);
  if (npm.size === 0) problems.push("package.json has no exports");
  for (const [subpath, file] of npm) {
    const source = deno.find(([key]) => key === subpath)?.[1];
    const expected = file.replace(/^\.\/dist\/(.*)\.js$/, "./src/$1.ts");
    if (source === undefined) problems.push(`jsr.json exports lacks "${subpath}" (package.json exports it as ${file})`);
    else if (source !== expected)
      problems.push(
        `jsr.json exports "${subpath}" as ${JSON.stringify(source)}, expected "${expected}" (from ${file})`,
      );
  }
  for (const [subpath] of deno)
    if (!npm.has(subpath)) problems.push(`jsr.json exports "${subpath}", which package.json does not export`);
  if (typeof pkg.version === "string" && !changelog.split("\n").some((line) => line.startsWith(`## ${pkg.version}`)))
    problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
  return problems;
}

/**
 * Problems in the file list npm would publish: a file an export points at
 * (its `types` or `default`) is missing, a top-level file (README.md,
 * LICENSE, CHANGELOG.md, package.json) is missing, or a file lies outside
 * `dist/`, `src/` and those.
 *
 * @param pkg - package.json.
 * @param files - the packed paths, relative to the package root.
 * @returns one message per problem, naming the file.
 *
 * @example
 * ```ts
 * packedFileProblems({ exports: { ".": "./dist/index.js" } }, ["package.json"]);
 * // → ["the package lacks dist/index.js (exports \".\")", …]
 * ```
 */
export function packedFileProblems(pkg: PackageManifest, files: readonly string[]): string[] {
  const problems: string[] = [];
  const packed = new Set(files);
  const exports = typeof pkg.exports === "object" && pkg.exports !== null ? Object.entries(pkg.exports) : [];
  for (const [subpath, target] of exports) {
    const targets = typeof target === "string" ? [target] : Object.values(target as Record<string, unknown>);
    for (const file of targets)
      if (typeof file === "string" && !packed.has(file.replace(/^\.\//, "")))
        problems.push(`the package lacks ${file.replace(/^\.\//, "")} (exports "${subpath}")`);
  }
  for (const file of packedTopLevel) if (!packed.has(file)) problems.push(`the package lacks ${file}`);
  for (const file of files)
    if (!packedTopLevel.has(file) && !file.startsWith("dist/") && !file.startsWith("src/"))
      problems.push(`the package would publish ${file}, outside dist/ and src/`);
  return problems;
}
