/**
 * Type-checks every TypeScript project in the repository with `tsc -p`.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

/** The projects, each with its own type fence. */
const typecheckProjects = [
  "tsconfig.json",
  "tsconfig.ui.json",
  "worker/tsconfig.json",
  "web-demo/tsconfig.json",
  "test/tsconfig.json",
  "test/tsconfig.workerd.json",
  "scripts/tsconfig.json",
];

/**
 * Runs `tsc -p` for each project in turn, printing tsc's diagnostics.
 *
 * @param root - the repository root.
 * @returns the projects that failed; empty when all passed.
 * @example
 * ```ts
 * const failed = await typecheck(process.cwd());
 * ```
 */
export async function typecheck(root: string): Promise<string[]> {
  const tsc = join(root, "node_modules", ".bin", "tsc");
  const failed: string[] = [];
  for (const project of typecheckProjects) {
    const started = Date.now();
    const code = await new Promise<number>((resolve) => {
      const child = spawn(tsc, ["-p", project, "--pretty"], { cwd: root, stdio: "inherit" });
      child.on("exit", (exitCode) => resolve(exitCode ?? 1));
      child.on("error", () => resolve(1));
    });
    console.log(`tsc -p ${project}: ${code === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    if (code !== 0) failed.push(project);
  }
  return failed;
}
