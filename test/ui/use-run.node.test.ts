/**
 * `useRun` of `plankit/react` in a React 19 StrictMode page in headless
 * Chromium, over event streams that stay open: the store is made once per
 * source and reads once, a new source makes a new store and closes the old
 * one, and unmounting closes the store and its request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeSse } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";
import {
  bundleForBrowser,
  type LocalServer,
  launchChromium,
  serveOnLocalhost,
  servePage,
} from "../fixtures/browser.ts";
import type { UseRunPage } from "./run-page/use-run-page.ts";

let server: LocalServer;
let browser: Browser;
/** The event-stream requests, by path, and whether each is still open. */
const streams: { path: string; open: boolean }[] = [];

/** A run that has planned one step and goes on: its stream stays open. */
function runningLog(runId: string): RuntimeEvent[] {
  return [
    { type: "plan-start", runId, t: 0, kind: "plan", query: "a long run", attempt: 1 },
    {
      type: "step-planned",
      runId,
      t: 1,
      step: { id: "s1", type: "tool", name: "slow_lookup", arguments: {} },
      index: 0,
      source: "plan",
      safe: true,
    },
  ] as RuntimeEvent[];
}

beforeAll(async () => {
  const script = await bundleForBrowser(new URL("./run-page/use-run-page.ts", import.meta.url), {
    "process.env.NODE_ENV": '"development"',
  });
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>useRun</title><body><main id="root"></main><script type="module" src="/page.js"></script></body></html>';
  const page = servePage("/page.js", script, html);
  server = await serveOnLocalhost((request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/v1\/runs\/(\w+)\/events$/u.exec(request.url ?? "");
    if (match === null) return page(request, response);
    const stream = { path: request.url ?? "", open: true };
    streams.push(stream);
    request.on("close", () => {
      stream.open = false;
    });
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    response.write(
      runningLog(match[1] ?? "")
        .map((event, index) => encodeSse(event, index))
        .join(""),
    );
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.server.closeAllConnections();
  await server?.stop();
});

const call = <T>(tab: Page, body: (page: UseRunPage) => T) =>
  tab.evaluate(
    (source) =>
      new Function("page", `return (${source})(page)`)((globalThis as { useRunPage?: UseRunPage }).useRunPage),
    body.toString(),
  ) as Promise<T>;

describe("useRun in a React 19 StrictMode page", () => {
  it("reads each source once, closes the old store on a new source, and closes the store on unmount", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(server.origin, { waitUntil: "load" });
    await tab.waitForFunction(() => (globalThis as { useRunPage?: UseRunPage }).useRunPage !== undefined);

    await call(tab, (page) => page.show("/v1/runs/first/events"));
    await tab.locator("p.run", { hasText: "/v1/runs/first/events: 1 steps, running" }).waitFor({ timeout: 30_000 });
    await tab.waitForTimeout(100);
    expect(streams.map((stream) => stream.path)).toEqual(["/v1/runs/first/events"]);
    expect(await call(tab, (page) => page.connections().at(-1))).toBe("open");

    await call(tab, (page) => page.show("/v1/runs/second/events"));
    await tab.locator("p.run", { hasText: "/v1/runs/second/events: 1 steps, running" }).waitFor({ timeout: 30_000 });
    await tab.waitForTimeout(100);
    expect(streams.map((stream) => [stream.path, stream.open])).toEqual([
      ["/v1/runs/first/events", false],
      ["/v1/runs/second/events", true],
    ]);
    const shown = await call(tab, (page) => page.stores.map((entry) => entry.url));
    const statuses = await call(tab, (page) => page.connections());
    expect(statuses[shown.indexOf("/v1/runs/first/events")]).toBe("closed");

    await call(tab, (page) => page.unmount());
    await tab.waitForTimeout(100);
    expect(streams.map((stream) => stream.open)).toEqual([false, false]);
    expect(await call(tab, (page) => page.connections().at(-1))).toBe("closed");
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});
