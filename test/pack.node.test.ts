import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "plankit-pack-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The README's quick start, as written (it imports from "plankit"). */
function quickStart(): string {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const start = readme.indexOf("\n## Quick start\n");
  expect(start, 'README has a "## Quick start" section').toBeGreaterThan(0);
  const code = /```ts\n([\s\S]*?)```/u.exec(readme.slice(start))?.[1];
  expect(code, "the quick start has a ts block").toBeDefined();
  return code ?? "";
}

describe("installing the package from a packed tarball", () => {
  it("packs, installs into a fresh project and runs the README quick start there", () => {
    // Build and pack a copy, so the checkout's dist/ is neither needed nor touched.
    const packageDirectory = join(work, "package");
    for (const name of ["package.json", "README.md", "src", "tsconfig.json", "tsconfig.build.json"])
      cpSync(join(root, name), join(packageDirectory, name), { recursive: true });
    // The build resolves the peer dependencies' types (ai) from the checkout's node_modules; npm pack leaves it out.
    symlinkSync(join(root, "node_modules"), join(packageDirectory, "node_modules"), "dir");
    execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(packageDirectory, "tsconfig.build.json")], {
      cwd: packageDirectory,
      stdio: "pipe",
      timeout: 120_000,
    });
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--loglevel=error", "--pack-destination", work], {
        cwd: packageDirectory,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      }),
    ) as { filename: string; files: { path: string }[] }[];
    const tarball = join(work, packed[0]?.filename ?? "");
    const files = (packed[0]?.files ?? []).map((file) => file.path);
    // Every entry of the exports map is in the tarball, code and types.
    const exportsMap = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
        exports: Record<string, string | { types: string; default: string }>;
      }
    ).exports;
    const targets = Object.values(exportsMap).flatMap((target) =>
      typeof target === "string" ? [target] : [target.types, target.default],
    );
    expect(targets.length).toBeGreaterThan(10);
    for (const target of targets) expect(files).toContain(target.replace(/^\.\//u, ""));
    expect(files.some((path) => path.startsWith("test/") || path.startsWith("worker/"))).toBe(false);

    const app = join(work, "app");
    cpSync(join(root, "test", "fixtures", "pack-app"), app, { recursive: true });
    execFileSync(
      "npm",
      ["install", tarball, "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--loglevel=error"],
      { cwd: app, stdio: "pipe", timeout: 120_000 },
    );
    expect(readdirSync(join(app, "node_modules"))).toEqual(expect.arrayContaining(["plankit", "valibot"]));
    const code = quickStart();
    expect(code).toContain('from "plankit"');
    // Plain JavaScript as well as TypeScript: it runs as .mjs, as an older Node would run it.
    writeFileSync(join(app, "quick-start.mjs"), code);
    const output = execFileSync(process.execPath, ["quick-start.mjs"], { cwd: app, encoding: "utf8", timeout: 30_000 });
    expect(output.trim()).toBe(/console\.log\(event\.text\); \/\/ (.+)\n/u.exec(code)?.[1]);

    // Each subpath resolves from an installed copy and exports something (plankit/ai and plankit/react need their peers `ai` and `react`, not installed here).
    const subpaths = Object.keys(exportsMap).filter(
      (key) => key !== "./package.json" && key !== "./ai" && key !== "./react",
    );
    const probe = subpaths
      .map(
        (key, index) =>
          `import * as e${index} from ${JSON.stringify(`plankit${key.slice(1)}`)}; names[${JSON.stringify(key)}] = Object.keys(e${index}).length;`,
      )
      .join("\n");
    writeFileSync(join(app, "probe.mjs"), `const names = {};\n${probe}\nconsole.log(JSON.stringify(names));\n`);
    const counts = JSON.parse(
      execFileSync(process.execPath, ["probe.mjs"], { cwd: app, encoding: "utf8", timeout: 30_000 }),
    ) as Record<string, number>;
    for (const key of subpaths) {
      // An entry of types only (plankit/model, plankit/runtime) resolves, has no values, and declares its types.
      const entry = key === "." ? "index" : key.slice(2);
      const typesOnly = !/^export \{/mu.test(readFileSync(join(root, "src", `${entry}.ts`), "utf8"));
      if (!typesOnly) expect(counts[key], key).toBeGreaterThan(0);
      else {
        expect(counts[key], key).toBe(0);
        const declarations = readFileSync(join(app, "node_modules", "plankit", "dist", `${entry}.d.ts`), "utf8");
        expect(declarations, key).toMatch(/export type \{/u);
      }
    }
    expect(counts["."]).toBeLessThanOrEqual(40);
  }, 300_000);
});
