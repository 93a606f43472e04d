/**
 * Mutation testing with StrykerJS, one module (or line range) at a time:
 *
 *     npm run mutate -- src/plan/resolve-references.ts
 *     npm run mutate -- src/json/create-json-stream-parser.ts:120-180 --tests test/json/lenient.test.ts
 *
 * Without `--tests`, the tests run against the mutants are the Node suites
 * (`*.test.ts`, `*.node.test.ts`) that name one of the module's exported
 * functions or classes: the tests that speak for the module, not every suite
 * that reaches it through the runtime. The report lands in `.tmp/mutation/`.
 * Not part of `npm test`: a module takes minutes.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const targets: string[] = [];
const tests: string[] = [];
const passThrough: string[] = [];
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index] ?? "";
  if (arg === "--tests") tests.push(...(args[(index += 1)] ?? "").split(",").filter((file) => file !== ""));
  else if (arg.startsWith("-")) passThrough.push(arg);
  else targets.push(arg);
}
if (targets.length === 0) {
  console.error(
    "usage: npm run mutate -- <src/file.ts[:start-end]>... [--tests test/a.test.ts,test/b.test.ts] [stryker options]",
  );
  process.exit(2);
}
for (const target of targets) {
  const file = target.replace(/:\d+-\d+$/u, "");
  if (!existsSync(join(root, file))) {
    console.error(`No such file: ${file}`);
    process.exit(2);
  }
}

/**
 * Lists the Node test files under a folder.
 *
 * @param folder - an absolute folder.
 * @returns absolute paths of `*.test.ts` files, without the workerd, e2e and benchmark suites.
 */
function listTestFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "e2e" || entry.name === "bench" ? [] : listTestFiles(path);
    return entry.name.endsWith(".test.ts") && !entry.name.endsWith(".workerd.test.ts") ? [path] : [];
  });
}

if (tests.length === 0) {
  const names = targets.flatMap((target) => {
    const source = readFileSync(join(root, target.replace(/:\d+-\d+$/u, "")), "utf8");
    return [...source.matchAll(/^export (?:async )?(?:function\*? ?|class |const )([A-Za-z_$][\w$]*)/gmu)].map(
      (match) => match[1] ?? "",
    );
  });
  const pattern = new RegExp(`\\b(?:${names.join("|")})\\b`, "u");
  for (const file of listTestFiles(join(root, "test"))) {
    if (names.length > 0 && pattern.test(readFileSync(file, "utf8"))) tests.push(relative(root, file));
  }
}
if (tests.length === 0) {
  console.error(`No test file names an export of ${targets.join(", ")}; pass --tests`);
  process.exit(2);
}
console.log(`mutating ${targets.join(", ")}\nagainst ${tests.join(", ")}`);
const stryker = join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
const result = spawnSync(
  process.execPath,
  [stryker, "run", "--mutate", targets.join(","), "--testFiles", tests.join(","), ...passThrough],
  {
    cwd: root,
    stdio: "inherit",
  },
);
process.exitCode = result.status ?? 1;
