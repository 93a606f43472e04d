import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The first ts block after a heading, with the package's entries pointed at the sources. The
 * docs suite runs every block; this one also type-checks the blocks that promise typed tools.
 */
function blockAfter(page: string, heading: string): string {
  const text = readFileSync(`${root}${page}`, "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${page} has "${heading}"`).toBeGreaterThan(-1);
  const block = /^```ts\n([\s\S]*?)^```$/mu.exec(text.slice(start));
  expect(block, `${page} has a ts block after "${heading}"`).not.toBeNull();
  return (block?.[1] ?? "").replace(
    /from "plankit(?:\/([a-z]+))?"/gu,
    (_whole, entry: string | undefined) => `from "../../src/${entry ?? "index"}.ts"`,
  );
}

describe("the typed-tool examples of the docs type-check under the package's strict settings", () => {
  it("README's quick start and docs/tools.md's typed tools", () => {
    const directory = `${root}.tmp/typed-docs`;
    mkdirSync(directory, { recursive: true });
    writeFileSync(`${directory}/quick-start.ts`, `${blockAfter("README.md", "## Quick start")}\nexport {};\n`);
    writeFileSync(`${directory}/typed-tools.ts`, `${blockAfter("docs/tools.md", "## Typed tools")}\nexport {};\n`);
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: { lib: ["ES2022", "DOM"], types: [] },
      include: ["*.ts"],
    };
    writeFileSync(`${directory}/tsconfig.json`, JSON.stringify(config));
    let output = "";
    try {
      execFileSync(`${root}node_modules/.bin/tsc`, ["-p", `${directory}/tsconfig.json`, "--pretty", "false"], {
        encoding: "utf8",
        timeout: 60_000,
      });
    } catch (error) {
      output = String((error as { stdout?: unknown }).stdout ?? error);
    }
    expect(output).toBe("");
  });
});
