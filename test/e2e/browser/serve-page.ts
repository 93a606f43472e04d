/**
 * A page of its own origin for the browser e2e tests: the official
 * `openai` client bundled for Chromium, served on 127.0.0.1.
 *
 * @module
 */
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** A running page server. */
export interface PageServer {
  /** Its origin, e.g. `http://127.0.0.1:51234`. */
  origin: string;
  stop(): Promise<void>;
}

/**
 * Bundles `openai-in-the-browser.ts` for the browser and serves it, with
 * an empty page that loads it, on `port`.
 *
 * @param port - a free port of 127.0.0.1.
 * @returns the server.
 */
export async function servePage(port: number): Promise<PageServer> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./openai-in-the-browser.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "error",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const page =
    '<!doctype html><meta charset="utf-8"><title>openai in the browser</title><script type="module" src="/client.js"></script>';
  const server: Server = createServer((request, response) => {
    if (request.url === "/client.js")
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
