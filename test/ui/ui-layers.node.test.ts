import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLayers } from "../../scripts/lib/check-layers.ts";

const scratch = mkdtempSync(join(tmpdir(), "plankit-ui-layers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the front-end layers", () => {
  it("let ui/ import only errors, shared and events, and react/ only ui, naming file, line and what is allowed", () => {
    const files: Record<string, string> = {
      "events/replay.ts": "export const replay = 1;\n",
      "plan/find.ts": "export const find = 1;\n",
      "ui/store.ts":
        'import { replay } from "../events/replay.ts";\nimport { find } from "../plan/find.ts";\nexport const store = replay + find;\n',
      "react/use-run.ts":
        'import { store } from "../ui/store.ts";\nimport type { replay } from "../events/replay.ts";\nexport const useRun = store;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(scratch, "src", path, ".."), { recursive: true });
      writeFileSync(join(scratch, "src", path), text);
    }
    const problems = checkLayers(scratch);
    expect(problems.map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      "src/react/use-run.ts:2",
      "src/ui/store.ts:2",
    ]);
    expect(problems[1]?.message).toBe(
      'src/ui imports "../plan/find.ts" from src/plan; src/ui may import only from src/errors, src/shared, src/events',
    );
    expect(problems[0]?.message).toBe(
      'src/react imports "../events/replay.ts" from src/events; src/react may import only from src/ui',
    );
  });
});
