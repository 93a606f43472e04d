/**
 * The blocks of the README and docs/ that need a running Worker (`// needs: … npm start …`), run as
 * written against `wrangler dev`: the address `npm start` serves (`localhost:8787` or
 * `127.0.0.1:8787`, or `PLANKIT_URL`) is pointed at the suite's Worker, imports of `plankit` at the
 * sources, and each block must exit cleanly and print what its `// text` comments promise.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { docBlocks, needsService, printedLines, promisedOutput, root, withSourceImports } from "../docs-blocks.ts";

/** The blocks whose `// needs:` line asks for the Worker that `npm start` serves. */
const blocks = docBlocks().filter(
  (block) => needsService(block) && /^\/\/ needs: .*Worker.*npm start/mu.test(block.code),
);
const folder = join(root, ".tmp", "docs-worker");

let server: WranglerDev;

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  server = await startWranglerDev(root, {
    args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml")],
    vars: { PLANKIT_DEMO_TOKENS_PER_SECOND: "400" },
  });
});

afterAll(async () => {
  await server?.stop();
});

/**
 * Runs a file with the Node that runs the tests.
 *
 * @param file - the file.
 * @returns what it printed, and how it ended.
 */
function runFile(file: string): Promise<{ code: number; output: string; errors: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd: folder, encoding: "utf8", timeout: 60_000, env: { ...process.env, PLANKIT_URL: server.url } },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
          output: stdout,
          errors: stderr,
        }),
    );
  });
}

describe("the blocks that need the Worker, against wrangler dev", () => {
  it("finds them: the README's request, the OpenAI client and the run store over a run's URL", () => {
    expect(blocks.map((block) => block.page).sort()).toEqual(["README.md", "docs/ui.md", "docs/worker.md"]);
  });

  for (const block of blocks) {
    it(`${block.page}:${block.line} runs and prints what it promises`, async () => {
      const code = withSourceImports(block.code).replaceAll(/http:\/\/(?:localhost|127\.0\.0\.1):8787/gu, server.url);
      const file = join(folder, block.file);
      writeFileSync(file, code);
      const { code: exitCode, output, errors } = await runFile(file);
      expect(errors).toBe("");
      expect(exitCode).toBe(0);
      expect(output.trim()).not.toBe("");
      const promised = promisedOutput(block.code);
      if (promised.length > 0) expect(printedLines(output)).toEqual(promised);
    });
  }
});
