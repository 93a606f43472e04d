import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The first ```ts block after a heading of the README. */
function codeAfter(heading: string): string {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README has a "## ${heading}" section`).toBeGreaterThan(0);
  const match = /```ts\n([\s\S]*?)```/u.exec(readme.slice(start));
  expect(match, `"## ${heading}" has a ts code block`).not.toBeNull();
  return match![1]!;
}

describe("README", () => {
  it("has a quick start that runs and prints the reply its comment promises", () => {
    const code = codeAfter("Quick start").replace(/from "plankit"/gu, `from ${JSON.stringify(`${root}src/index.ts`)}`);
    const promised = /console\.log\(event\.text\); \/\/ (.+)\n/u.exec(code)?.[1];
    expect(promised).toBe("2 + 3 = 5");
    mkdirSync(`${root}.tmp`, { recursive: true });
    const file = `${root}.tmp/readme-quick-start.ts`;
    writeFileSync(file, code);
    const output = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 });
    expect(output.trim()).toBe(promised);
  });
});
