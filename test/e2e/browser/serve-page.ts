/**
 * A page of its own origin for the browser e2e tests: the official
 * `openai` client bundled for Chromium, served on 127.0.0.1.
 *
 * @module
 */
import {
  servePage as answerPage,
  bundleForBrowser,
  type LocalServer,
  serveOnLocalhost,
} from "../../fixtures/browser.ts";

/** A running page server. */
export type PageServer = Pick<LocalServer, "origin" | "stop">;

/**
 * Bundles `openai-in-the-browser.ts` for the browser and serves it, with
 * an empty page that loads it, on `port`.
 *
 * @param port - a free port of 127.0.0.1.
 * @returns the server.
 */
export async function servePage(port: number): Promise<PageServer> {
  const script = await bundleForBrowser(new URL("./openai-in-the-browser.ts", import.meta.url));
  const page =
    '<!doctype html><meta charset="utf-8"><title>openai in the browser</title><script type="module" src="/client.js"></script>';
  return serveOnLocalhost(answerPage("/client.js", script, page), port);
}
