/**
 * Builds the web demo into the Worker's static assets directory.
 *
 * @module
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** Where the built demo goes, relative to the repository root (`[assets]` in wrangler.toml). */
const demoOutputDirectory = "web-demo/dist";

/**
 * Bundles `web-demo/main.ts` (the plankit core, the demo model and tools
 * included) with esbuild into `web-demo/dist/main.js`, and copies the static
 * files of `web-demo/public/` beside it.
 *
 * @param root - the repository root.
 * @param options - `minify` (default `true`).
 * @returns the output directory and the bundle's size in bytes.
 * @example
 * ```ts
 * const { directory } = await buildDemo(process.cwd());
 * ```
 */
export async function buildDemo(
  root: string,
  options: { minify?: boolean } = {},
): Promise<{ directory: string; bytes: number }> {
  const directory = join(root, demoOutputDirectory);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  for (const entry of readdirSync(join(root, "web-demo", "public"))) {
    cpSync(join(root, "web-demo", "public", entry), join(directory, entry), { recursive: true });
  }
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, "web-demo", "main.ts")],
    outfile: join(directory, "main.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: options.minify ?? true,
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  });
  const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith("main.js"));
  return { directory, bytes: output?.[1].bytes ?? 0 };
}
