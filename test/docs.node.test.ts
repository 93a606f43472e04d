import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  docBlocks,
  isFragment,
  needsService,
  printedLines,
  promisedOutput,
  root,
  withSourceImports,
} from "./docs-blocks.ts";

const all = docBlocks();

describe("every TypeScript block of the README and docs/", () => {
  it("finds the blocks, and at most two in the README need a live service", () => {
    expect(all.filter((block) => block.page === "README.md").length).toBeGreaterThanOrEqual(8);
    expect(all.filter((block) => block.page === "README.md" && needsService(block)).length).toBeLessThanOrEqual(2);
  });

  it("has no placeholders: no … or <…> in code", () => {
    for (const block of all) {
      expect(block.code, `${block.page}:${block.line}`).not.toMatch(/…|\.\.\.\s*[)\]}]|<your[- ]|YOUR_/u);
    }
  });

  mkdirSync(`${root}.tmp/docs`, { recursive: true });
  for (const block of all) {
    const file = `${root}.tmp/docs/${block.file}`;
    if (needsService(block) || isFragment(block)) {
      const why = needsService(block) ? "needs a live service" : "a fragment";
      it(`${block.page}:${block.line} (${why}) parses`, () => {
        writeFileSync(file, withSourceImports(block.code));
        execFileSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 20_000 });
      });
      continue;
    }
    it(`${block.page}:${block.line} runs and prints what it promises`, () => {
      writeFileSync(file, withSourceImports(block.code));
      const output = execFileSync(process.execPath, [file], {
        encoding: "utf8",
        timeout: 30_000,
        cwd: `${root}.tmp/docs`,
      });
      const promised = promisedOutput(block.code);
      if (promised.length > 0) expect(printedLines(output)).toEqual(promised);
    });
  }
});
