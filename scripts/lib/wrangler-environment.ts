/**
 * The environment `wrangler dev` runs with here.
 *
 * @module
 */

/**
 * The environment for a `wrangler dev` child process, offline: metrics off,
 * and no download of the `request.cf` placeholder from workers.cloudflare.com
 * (unless `CLOUDFLARE_CF_FETCH_ENABLED` is set).
 *
 * @param base - the environment to extend.
 * @returns the environment.
 * @example
 * ```ts
 * spawn(wrangler, ["dev"], { env: wranglerEnvironment() });
 * ```
 */
export function wranglerEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...base, WRANGLER_SEND_METRICS: "false" };
}
