/**
 * The published package: built as `npm run build` builds it, then linted
 * with publint (exports, types, files, module format).
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

/**
 * Builds `dist/` and runs publint in strict mode over the package.
 *
 * @param root - the repository root.
 * @returns whether the build succeeded and publint found nothing; prints what it found.
 * @example
 * ```ts
 * if (!(await checkPackage(root))) process.exitCode = 1;
 * ```
 */
export async function checkPackage(root: string): Promise<boolean> {
  try {
    execFileSync(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      { cwd: root, stdio: "inherit" },
    );
  } catch {
    console.log("npm run build FAILED");
    return false;
  }
  const { messages, pkg } = await publint({ pkgDir: root, strict: true });
  for (const message of messages)
    console.log(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
  console.log(
    messages.length === 0 ? "Package: built, publint clean." : `Package: publint found ${messages.length} problem(s).`,
  );
  return messages.length === 0;
}
