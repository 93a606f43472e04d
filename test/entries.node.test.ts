import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The package's entries: subpath → entry file, from package.json's `exports`. */
function packageEntries(): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
    exports: Record<string, { default?: string } | string>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(exports)) {
    if (typeof target === "string") continue;
    const built = /^\.\/dist\/([a-z]+)\.js$/u.exec(target.default ?? "");
    expect(built, `package.json exports["${subpath}"] points at dist/<name>.js`).not.toBeNull();
    entries.set(subpath === "." ? "plankit" : `plankit/${subpath.slice(2)}`, `src/${built?.[1]}.ts`);
  }
  return entries;
}

/** One exported name of an entry file, read from its `export { … } from` lists. */
interface ExportedName {
  name: string;
  type: boolean;
}

/** Reads an entry file's exported names; an entry is made of `export { … } from "…"` lists only. */
function exportedNames(file: string): ExportedName[] {
  const text = readFileSync(`${root}${file}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gmu, "");
  expect(text, `${file} re-exports by name (no export *)`).not.toMatch(/export\s*\*/u);
  const names: ExportedName[] = [];
  for (const list of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from/gu)) {
    for (const item of (list[2] ?? "").split(",")) {
      const written = item.trim();
      if (written === "") continue;
      const type = list[1] !== undefined || written.startsWith("type ");
      const name =
        written
          .replace(/^type\s+/u, "")
          .split(/\s+as\s+/u)
          .at(-1) ?? written;
      names.push({ name, type });
    }
  }
  const declared = text.match(/export\s+(?:declare\s+)?(?:const|function|class|let|interface|type|enum)\s+[\w$]/gu);
  expect(declared, `${file} declares nothing itself: it lists what lives behind it`).toBeNull();
  return names;
}

describe("the package's entries", () => {
  const entries = packageEntries();

  it("cover every subpath, each with names of its own", () => {
    expect([...entries.keys()]).toContain("plankit");
    for (const [entry, file] of entries)
      expect(exportedNames(file).length, `${entry} exports names`).toBeGreaterThan(0);
  });

  it("give every exported name exactly one home", () => {
    const homes = new Map<string, string[]>();
    for (const [entry, file] of entries)
      for (const { name } of exportedNames(file)) homes.set(name, [...(homes.get(name) ?? []), entry]);
    const shared = [...homes]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(", ")}`);
    expect(shared).toEqual([]);
  });

  it("keep the front door to the types an application writes", () => {
    const front = exportedNames(entries.get("plankit") ?? "");
    const types = front.filter((name) => name.type).map((name) => name.name);
    expect(types.length, `plankit exports ${types.length} types: ${types.join(", ")}`).toBeLessThanOrEqual(20);
    for (const needed of ["AgentRuntimeOptions", "RuntimeEvent", "ToolDefinition", "PlanStep", "RunHandle"])
      expect(types).toContain(needed);
  });
});
