/**
 * The environment `wrangler dev` runs with here.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Reads a package's version.
 *
 * @param directory - the package directory.
 * @returns the version, or `undefined` when the package is missing.
 */
function versionOf(directory: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * The environment for a `wrangler dev` child process: metrics off, the
 * `request.cf` download off (unless `CLOUDFLARE_CF_FETCH_ENABLED` is set), and —
 * when the repository holds a newer `workerd` than the one wrangler ships
 * with — `MINIFLARE_WORKERD_PATH` pointing at it, because the Worker's
 * `compatibility_date` is set for the newer runtime the workerd test suite
 * uses, and wrangler's own binary refuses dates newer than itself. A
 * `MINIFLARE_WORKERD_PATH` already set is kept.
 *
 * @param root - the repository root.
 * @param base - the environment to extend.
 * @returns the environment.
 * @example
 * ```ts
 * spawn(wrangler, ["dev"], { env: wranglerEnvironment(root) });
 * ```
 */
export function wranglerEnvironment(root: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  // Offline: no metrics, and no fetch of the `request.cf` placeholder from workers.cloudflare.com.
  const env: NodeJS.ProcessEnv = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...base, WRANGLER_SEND_METRICS: "false" };
  if (env["MINIFLARE_WORKERD_PATH"] !== undefined) return env;
  const hoisted = join(root, "node_modules", "workerd");
  const bundled = join(root, "node_modules", "wrangler", "node_modules", "workerd");
  const hoistedVersion = versionOf(hoisted);
  const bundledVersion = versionOf(bundled);
  const binary = join(hoisted, "bin", process.platform === "win32" ? "workerd.exe" : "workerd");
  if (hoistedVersion !== undefined && bundledVersion !== undefined && hoistedVersion.localeCompare(bundledVersion, "en", { numeric: true }) > 0 && existsSync(binary)) {
    env["MINIFLARE_WORKERD_PATH"] = binary;
  }
  return env;
}
