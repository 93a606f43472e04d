/** Runs the example against a fresh directory and checks what the real MCP server read and wrote. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

test("the plan lists, reads and copies through the filesystem MCP server", async () => {
  const directory = await realpath(await mkdtemp(join(tmpdir(), "plankit-mcp-example-")));
  try {
    const notes = `milk, eggs, ${Math.random().toString(36).slice(2)}\n`;
    await writeFile(join(directory, "notes.txt"), notes);
    await writeFile(join(directory, "todo.md"), "- call Ada\n");
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["src/main.ts", directory], {
      timeout: 60_000,
    });
    assert.match(stdout, /\[FILE\] notes\.txt/);
    assert.match(stdout, /\[FILE\] todo\.md/);
    assert.ok(stdout.includes(`notes.txt says: ${notes.trim()}`), stdout);
    assert.equal(await readFile(join(directory, "notes-copy.txt"), "utf8"), notes);
    assert.match(stderr, /s3 started/);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});

test("without a directory it prints a usage line and exits with status 2, touching nothing", async () => {
  const failed = await promisify(execFile)(process.execPath, ["src/main.ts"], { timeout: 60_000 }).then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
  assert.equal(failed?.code, 2);
  assert.match(failed?.stderr ?? "", /No directory given\.\nUsage: npm start -- <directory>/);
});

test("a path that is not a directory is refused with its name and the usage line", async () => {
  const missing = join(tmpdir(), `plankit-mcp-missing-${Math.random().toString(36).slice(2)}`);
  const failed = await promisify(execFile)(process.execPath, ["src/main.ts", missing], { timeout: 60_000 }).then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
  assert.equal(failed?.code, 2);
  assert.ok(failed?.stderr?.includes(`"${missing}" is not a directory`), String(failed?.stderr));
  assert.match(failed?.stderr ?? "", /Usage: npm start/);
});
