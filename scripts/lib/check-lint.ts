/**
 * The lint and format check: Biome (configured in `biome.json`) reports
 * lint errors and files that differ from their formatting.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/**
 * Runs `biome ci` over the repository and prints what it finds.
 *
 * @param root - the repository root.
 * @returns whether no lint error and no unformatted file was found.
 *
 * @example
 * ```ts
 * if (!checkLint(root)) process.exitCode = 1;
 * ```
 */
export function checkLint(root: string): boolean {
  const result = spawnSync(
    process.execPath,
    [join(root, "node_modules", "@biomejs", "biome", "bin", "biome"), "ci", "--colors=off", "."],
    {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 300_000,
    },
  );
  const output = `${result.stdout}${result.stderr}`.trim();
  const ok = result.status === 0;
  // A passing run prints its warnings' count only; a failing one shows every error.
  console.log(
    ok
      ? output
          .split("\n")
          .filter((line) => /^(Checked|Found)/u.test(line.trim()))
          .join("\n") || "Lint and format hold."
      : output,
  );
  console.log(
    ok
      ? "Lint and format hold."
      : "Lint or format FAILED (see above; `npm run format` fixes formatting, biome.json configures the rules).",
  );
  return ok;
}
