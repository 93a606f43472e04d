import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { manifestProblems, packedFileProblems } from "../scripts/lib/publish-problems.ts";

// The release manifests as committed: package.json (npm), jsr.json (JSR)
// and CHANGELOG.md. `npm test` also runs both publish dry runs
// (scripts/lib/check-publish.ts).

const read = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; exports: Record<string, unknown> };
const jsr = JSON.parse(read("jsr.json")) as { version: string; exports: Record<string, string> };
const changelog = read("CHANGELOG.md");

/** What npm packs for the committed package.json: its export targets and the top-level files. */
function packedFiles(): string[] {
  const files = ["package.json", "README.md", "LICENSE", "CHANGELOG.md", "src/index.ts"];
  for (const target of Object.values(pkg.exports))
    for (const file of typeof target === "string" ? [target] : Object.values(target as Record<string, string>))
      files.push(file.replace(/^\.\//, ""));
  return [...new Set(files)];
}

describe("the release manifests", () => {
  it("jsr.json has package.json's version and entries, and CHANGELOG.md a section for the version", () => {
    expect(jsr.version).toBe(pkg.version);
    expect(manifestProblems(pkg, jsr, changelog)).toEqual([]);
  });

  it("a jsr.json version other than package.json's is a problem naming both", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,2}\.\d{1,2}\.\d{1,2}$/).filter((version) => version !== pkg.version),
        (version) => {
          expect(manifestProblems(pkg, { ...jsr, version }, changelog)).toEqual([
            `jsr.json version "${version}" differs from package.json version "${pkg.version}"`,
          ]);
        },
      ),
    );
  });

  it("an entry missing from jsr.json, pointing elsewhere or only in jsr.json is a problem naming it", () => {
    const subpaths = Object.keys(jsr.exports);
    fc.assert(
      fc.property(fc.constantFrom(...subpaths), (subpath) => {
        const { [subpath]: dropped, ...rest } = jsr.exports;
        expect(manifestProblems(pkg, { ...jsr, exports: rest }, changelog)).toEqual([
          expect.stringContaining(`jsr.json exports lacks "${subpath}"`),
        ]);
        const moved = { ...jsr.exports, [subpath]: `${dropped}x` };
        expect(manifestProblems(pkg, { ...jsr, exports: moved }, changelog)).toEqual([
          expect.stringContaining(`jsr.json exports "${subpath}" as "${dropped}x"`),
        ]);
      }),
    );
    expect(
      manifestProblems(pkg, { ...jsr, exports: { ...jsr.exports, "./extra": "./src/extra.ts" } }, changelog),
    ).toEqual(['jsr.json exports "./extra", which package.json does not export']);
  });

  it("a changelog without the version's section, or a name that is not @scope/name, is a problem", () => {
    expect(manifestProblems(pkg, jsr, "# Changelog\n\n## 0.0.1\n")).toEqual([
      `CHANGELOG.md has no "## ${pkg.version}" section`,
    ]);
    expect(manifestProblems(pkg, { ...jsr, name: "plankit" }, changelog)).toEqual([
      'jsr.json name "plankit" is not a JSR package name (@scope/name)',
    ]);
  });

  it("the packed files hold every export target and nothing outside dist/ and src/", () => {
    const files = packedFiles();
    expect(packedFileProblems(pkg, files)).toEqual([]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: files.length - 1 }), (index) => {
        const missing = files[index] as string;
        const problems = packedFileProblems(
          pkg,
          files.filter((file) => file !== missing),
        );
        if (missing === "src/index.ts") expect(problems).toEqual([]);
        else {
          expect(problems.length).toBeGreaterThan(0);
          for (const problem of problems) expect(problem).toContain(`lacks ${missing}`);
        }
      }),
    );
    expect(packedFileProblems(pkg, [...files, "test/docs.node.test.ts"])).toEqual([
      "the package would publish test/docs.node.test.ts, outside dist/ and src/",
    ]);
  });
});
