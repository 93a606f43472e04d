/**
 * The unused-code check: knip (configured in `knip.json`) lists files,
 * exports, types and dependencies that nothing uses.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/**
 * Runs knip over the repository and prints what it finds.
 *
 * @param root - the repository root.
 * @returns whether nothing unused was found.
 *
 * @example
 * ```ts
 * if (!checkUnused(root)) process.exitCode = 1;
 * ```
 */
export function checkUnused(root: string): boolean {
  const result = spawnSync(process.execPath, [join(root, "node_modules", "knip", "bin", "knip.js"), "--no-progress"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 300_000,
  });
  const output = `${result.stdout}${result.stderr}`.trim();
  if (output !== "") console.log(output);
  const ok = result.status === 0;
  console.log(
    ok ? "Nothing unused." : "Unused code or dependencies FOUND (see above; knip.json configures the check).",
  );
  return ok;
}
