/**
 * The release dry runs: `npm publish --dry-run` and `deno publish
 * --dry-run` succeed, package.json and jsr.json agree, and npm would pack
 * every entry. Needs `dist/` built (see `checkPackage`); needs no network.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { manifestProblems, packedFileProblems } from "./publish-problems.ts";

/**
 * Runs a command in the repository, its output captured.
 *
 * @param root - the repository root.
 * @param command - the executable.
 * @param args - its arguments.
 * @returns its exit status and output.
 */
function run(root: string, command: string, args: string[]): { ok: boolean; stdout: string; output: string } {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? `\n${result.error.message}` : ""}`;
  return { ok: result.status === 0, stdout: result.stdout ?? "", output };
}

/**
 * Checks the release: `npm publish --dry-run --offline` (the files it would
 * pack: every export target, README.md, LICENSE, CHANGELOG.md, nothing
 * outside `dist/` and `src/`), package.json against jsr.json (version,
 * entries) and CHANGELOG.md (a section for the version), and `deno publish
 * --dry-run` (JSR's checks and a type check of every jsr.json entry;
 * `--allow-slow-types`, see CONTRIBUTING.md).
 *
 * @param root - the repository root, with `dist/` built.
 * @returns whether every check passed; prints what failed.
 *
 * @example
 * ```ts
 * if (!checkPublish(root)) process.exitCode = 1;
 * ```
 */
export function checkPublish(root: string): boolean {
  const read = (file: string): string => readFileSync(join(root, file), "utf8");
  const pkg = JSON.parse(read("package.json")) as Record<string, unknown>;
  const problems = manifestProblems(pkg, JSON.parse(read("jsr.json")) as Record<string, unknown>, read("CHANGELOG.md"));

  const npm = run(root, "npm", ["publish", "--dry-run", "--offline", "--json", "--ignore-scripts", "--loglevel=error"]);
  if (!npm.ok) problems.push(`npm publish --dry-run failed:\n${npm.output}`);
  else {
    try {
      const report = JSON.parse(npm.stdout) as Record<string, { files: { path: string }[] }>;
      const files = Object.values(report)[0]?.files.map((file) => file.path) ?? [];
      problems.push(...packedFileProblems(pkg, files));
    } catch (error) {
      problems.push(`npm publish --dry-run --json printed no report (${String(error)}):\n${npm.stdout}`);
    }
  }

  const deno = run(root, join(root, "node_modules", ".bin", "deno"), [
    "publish",
    "--dry-run",
    "--allow-dirty",
    "--allow-slow-types",
    "--no-lock",
  ]);
  if (!deno.ok) problems.push(`deno publish --dry-run failed:\n${deno.output}`);

  for (const problem of problems) console.log(problem);
  console.log(
    problems.length === 0
      ? "Publish: npm publish --dry-run and deno publish --dry-run pass; package.json, jsr.json and CHANGELOG.md agree."
      : `Publish: ${problems.length} problem(s).`,
  );
  return problems.length === 0;
}
