import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkLayers } from "../scripts/lib/check-layers.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "plankit-layers-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scratch repository whose `src/` holds the given files. */
function tree(name: string, files: Record<string, string>): string {
  const base = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, "src", path, ".."), { recursive: true });
    writeFileSync(join(base, "src", path), text);
  }
  return base;
}

describe("the layers of src/", () => {
  it("hold in this repository", () => {
    expect(checkLayers(root)).toEqual([]);
  });

  it("name an import from a higher layer, an unknown folder and the entry file, with file and line", () => {
    const base = tree("bad", {
      "index.ts": 'export * from "./runtime/run.ts";\n',
      "runtime/run.ts": 'import { decide } from "../decide/decide.ts";\nexport const run = decide;\n',
      "decide/decide.ts": 'import { run } from "../runtime/run.ts";\nexport const decide = () => run;\n',
      "tools/registry.ts": '\nimport { x } from "../index.ts";\nexport const y = import("../extras/more.ts");\n',
      "extras/more.ts": "export const more = 1;\n",
    });
    expect(checkLayers(base).map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      "src/decide/decide.ts:1",
      "src/extras/more.ts:1",
      "src/runtime/run.ts:1",
      "src/tools/registry.ts:2",
      "src/tools/registry.ts:3",
    ]);
    expect(checkLayers(base).find((problem) => problem.file === "src/runtime/run.ts")?.message).toContain(
      'src/runtime imports "../decide/decide.ts" from src/decide, a higher layer',
    );
  });

  it("hold the narrower folders to their own lists", () => {
    const base = tree("narrow", {
      "ui/view.ts": 'import { plan } from "../plan/plan.ts";\nexport const view = plan;\n',
      "react/use.ts": 'import { fail } from "../errors/fail.ts";\nexport const use = fail;\n',
      "decide/decide.ts": 'import { planner } from "../planner/planner.ts";\nexport const decide = planner;\n',
      "openai/chat.ts": 'import { run } from "../runtime/run.ts";\nimport { tool } from "../tools/tool.ts";\n',
      "errors/fail.ts": "export const fail = 1;\n",
      "plan/plan.ts": "export const plan = 1;\n",
      "tools/tool.ts": "export const tool = 1;\n",
      "planner/planner.ts": "export const planner = 1;\n",
      "runtime/run.ts": "export const run = 1;\n",
    });
    expect(checkLayers(base).map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      "src/decide/decide.ts:1",
      "src/openai/chat.ts:1",
      "src/openai/chat.ts:2",
      "src/react/use.ts:1",
      "src/ui/view.ts:1",
    ]);
    expect(checkLayers(base).find((problem) => problem.file === "src/decide/decide.ts")?.message).toContain(
      "src/decide may import only from src/errors",
    );
  });

  it("name a Worker or demo import of a module behind the public entries", () => {
    const base = tree("consumer", {
      "index.ts": 'export * from "./tools/registry.ts";\n',
      "tools/registry.ts": "export const registry = 1;\n",
    });
    mkdirSync(join(base, "worker"), { recursive: true });
    writeFileSync(
      join(base, "worker", "index.ts"),
      'import { registry } from "../src/index.ts";\n\nimport { registry as again } from "../src/tools/registry.ts";\n',
    );
    expect(checkLayers(base).map((problem) => `${problem.file}:${problem.line}`)).toEqual(["worker/index.ts:3"]);
    expect(checkLayers(base)[0]?.message).toContain(
      'worker/ imports "../src/tools/registry.ts", a module behind plankit\'s entries',
    );
  });

  it("name a Worker file outside worker/demo/ that imports the demo, and let worker/index.ts compose them", () => {
    const base = tree("demo-boundary", { "index.ts": "export const core = 1;\n" });
    const files: Record<string, string> = {
      "worker/demo/create-demo-tools.ts": 'import { core } from "../../src/index.ts";\nexport const tools = core;\n',
      "worker/demo/demo-options.ts":
        'import { tools } from "./create-demo-tools.ts";\nexport const options = { tools };\n',
      "worker/index.ts": 'import { options } from "./demo/demo-options.ts";\nexport default options;\n',
      "worker/routes/guide-route.ts":
        'import { core } from "../../src/index.ts";\nimport type { options } from "../demo/demo-options.ts";\n',
      "worker/demo-free.ts": 'export const free = import("./demo/create-demo-tools.ts");\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(base, path, ".."), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    expect(checkLayers(base).map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      "worker/demo-free.ts:1",
      "worker/routes/guide-route.ts:2",
    ]);
    expect(checkLayers(base)[1]?.message).toContain('imports "../demo/demo-options.ts" from worker/demo/');
  });
});
