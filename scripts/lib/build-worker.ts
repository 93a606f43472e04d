/**
 * The Worker's deploy build in modules: the entry the Worker starts with,
 * and the modules it imports only when a request needs them.
 *
 * @module
 */
import { rmSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

/** One module of the build. */
export interface WorkerModule {
  /** Its path, relative to the output directory (`index.js` is the entry). */
  file: string;
  /** Its size in bytes. */
  bytes: number;
  /** Whether the Worker loads it at start-up: the entry and what the entry imports statically. */
  atStartup: boolean;
}

/**
 * Bundles `worker/index.ts` as wrangler does (ES modules, the `workerd`,
 * `worker` and `browser` conditions, `cloudflare:` modules external,
 * `NODE_ENV` production, minified, names kept), but with code splitting:
 * what the Worker imports with `import()` — the model providers of
 * `worker/select-model.ts` and the AI SDK under them — lands in modules of
 * its own, which `wrangler deploy --no-bundle` uploads beside the entry and
 * the Worker loads on first use.
 *
 * @param root - the repository root.
 * @param directory - the output directory (emptied first).
 * @returns the modules, the entry first.
 * @example
 * ```ts
 * const modules = await buildWorker(root, join(root, ".tmp", "worker-deploy"));
 * ```
 */
export async function buildWorker(root: string, directory: string): Promise<WorkerModule[]> {
  rmSync(directory, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { index: join(root, "worker", "index.ts") },
    outdir: directory,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*"],
    define: { "process.env.NODE_ENV": '"production"' },
    target: "es2022",
    minify: true,
    keepNames: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined);
  const atStartup = new Set<string>();
  const visit = (path: string): void => {
    if (atStartup.has(path)) return;
    atStartup.add(path);
    for (const imported of outputs[path]?.imports ?? []) if (imported.kind === "import-statement") visit(imported.path);
  };
  if (entry !== undefined) visit(entry);
  return Object.entries(outputs)
    .map(([path, output]) => ({
      file: relative(directory, join(root, path)),
      bytes: output.bytes,
      atStartup: atStartup.has(path),
    }))
    .sort((a, b) => Number(b.file === "index.js") - Number(a.file === "index.js") || b.bytes - a.bytes);
}
