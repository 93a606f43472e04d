/**
 * The two uses of the elements in docs/ui.md ("The elements"), run as
 * written in headless Chromium: the HTML page with `<plankit-run src
 * token>` (served with an import map for `plankit/ui`, against a stand-in
 * of the run's event stream that wants the token), and the script that sets
 * the `store` property (its `plankit` imports pointed at `src/`, as
 * `test/docs.node.test.ts` does for the Node blocks); and the React component
 * of "React", in a page with its `#root`, against a stand-in of the run's
 * event stream that wants no token (the component passes none).
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../src/events.ts";
import { launchChromium } from "../fixtures/browser.ts";
import { type RunEventsRoutes, serveRunEvents } from "./run-events-server.ts";
import { plans, recordRun } from "./run-page/demo-runtime.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const page = readFileSync(`${root}docs/ui.md`, "utf8");
const elements = page.slice(page.indexOf("## The elements"), page.indexOf("## React"));
const htmlBlock = /```html\n([\s\S]*?)```/u.exec(elements)?.[1] ?? "";
const scriptBlock = /```ts\n(\/\/ needs: a browser\n[\s\S]*?)```/u.exec(elements)?.[1] ?? "";
const reactBlock = /```ts\n(\/\/ needs: a browser\n[\s\S]*?)```/u.exec(page.slice(page.indexOf("## React")))?.[1] ?? "";
const importMap = '<script type="importmap">{ "imports": { "plankit/ui": "/plankit-ui.js" } }</script>';

let server: Server;
let origin: string;
/** Serves the React page and a run's events without a token. */
let reactServer: Server;
let reactOrigin: string;
const reactRoutes: RunEventsRoutes = { runs: {}, drops: [], requests: [] };
let browser: Browser;
const routes: RunEventsRoutes = { runs: {}, drops: [], token: "secret", requests: [] };

/** Bundles a module for the page, its `plankit` imports pointed at the sources. */
async function bundle(contents: string): Promise<string> {
  const result = await build({
    define: { "process.env.NODE_ENV": '"development"' },
    stdin: {
      contents: contents.replace(
        /from "plankit(?:\/([a-z]+))?"/gu,
        (_whole, entry: string | undefined) => `from ${JSON.stringify(`${root}src/${entry ?? "index"}.ts`)}`,
      ),
      loader: "ts",
      resolveDir: root,
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "error",
  });
  return result.outputFiles[0]?.text ?? "";
}

beforeAll(async () => {
  routes.runs["run_123"] = await recordRun(plans.three);
  const ui = await bundle('export * from "plankit/ui";');
  const script = await bundle(scriptBlock);
  server = createServer((request, response) => {
    if (serveRunEvents(routes, request, response)) return;
    const javascript = { "content-type": "text/javascript; charset=utf-8" };
    const html = { "content-type": "text/html; charset=utf-8" };
    if (request.url === "/plankit-ui.js") response.writeHead(200, javascript).end(ui);
    else if (request.url === "/script.js") response.writeHead(200, javascript).end(script);
    else if (request.url === "/script.html")
      response
        .writeHead(200, html)
        .end(
          '<!doctype html><html lang="en"><title>store</title><script type="module" src="/script.js"></script></html>',
        );
    // The page as the docs write it; the import map stands where a bundler would resolve `plankit/ui`.
    else response.writeHead(200, html).end(htmlBlock.replace("<title>", `${importMap}<title>`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reactRoutes.runs["run_123"] = routes.runs["run_123"];
  const react = await bundle(reactBlock);
  reactServer = createServer((request, response) => {
    if (serveRunEvents(reactRoutes, request, response)) return;
    if (request.url === "/react.js")
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(react);
    else
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          '<!doctype html><html lang="en"><title>useRun</title><body><main id="root"></main><script type="module" src="/react.js"></script></body></html>',
        );
  });
  await new Promise<void>((resolve) => reactServer.listen(0, "127.0.0.1", resolve));
  reactOrigin = `http://127.0.0.1:${(reactServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => reactServer?.close(resolve));
});

describe("docs/ui.md: the elements, in a browser", () => {
  it("finds both blocks: a page that only imports plankit/ui with <plankit-run src token>, and a script setting store", () => {
    expect(htmlBlock).toContain('<plankit-run src="/v1/runs/run_123/events" token="secret"></plankit-run>');
    expect([...htmlBlock.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/gu)].map((match) => match[1]?.trim())).toEqual([
      'import "plankit/ui";',
    ]);
    expect(scriptBlock).toContain("view.store = createRunStore(");
  });

  it("the page shows the run of its src, read with its token", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(`${origin}/`, { waitUntil: "load" });
    await tab
      .locator("plankit-run [part=run-status]")
      .filter({ hasText: /^Completed in/u })
      .waitFor({ timeout: 30_000 });
    const state = replay(routes.runs["run_123"]!);
    expect(await tab.locator("plankit-reply [part=reply]").textContent()).toBe(state.reply?.text);
    expect(await tab.locator("plankit-steps li").count()).toBe(state.steps.length);
    expect(routes.requests.map((request) => [request.path, request.authorization])).toEqual([
      ["/v1/runs/run_123/events", "Bearer secret"],
    ]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);

  it("the script shows its run through the store, logs the decision, and the run ends with the note saved", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    const logged: unknown[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    tab.on("console", (message) => {
      if (message.type() === "log")
        void message
          .args()[0]
          ?.jsonValue()
          .then((value) => logged.push(value));
    });
    await tab.goto(`${origin}/script.html`, { waitUntil: "load" });
    await tab.locator("plankit-approval [part=approve-button]").click({ timeout: 30_000 });
    await tab
      .locator("plankit-run [part=run-status]")
      .filter({ hasText: /^Completed in/u })
      .waitFor({ timeout: 30_000 });
    expect(await tab.locator("plankit-reply [part=reply]").textContent()).toBe("Saved.");
    expect(await tab.locator('plankit-steps li[data-step="s1"]').getAttribute("data-status")).toBe("succeeded");
    await expect.poll(() => logged).toEqual([{ stepId: "s1", approved: true }]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);

  it("the React component follows the run of its URL through useRun and draws it with <plankit-run>", async () => {
    expect(reactBlock).toMatch(/useRun\(`\/v1\/runs\/\$\{runId\}\/events`\)/u);
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(`${reactOrigin}/`, { waitUntil: "load" });
    const state = replay(reactRoutes.runs["run_123"]!);
    await tab.locator("#root p").filter({ hasText: "ended" }).waitFor({ timeout: 30_000 });
    expect(await tab.locator("#root > section > p").textContent()).toBe(`${state.steps.length} steps, ended`);
    expect(await tab.locator("#root > section > button").count()).toBe(0);
    await tab
      .locator("plankit-run [part=run-status]")
      .filter({ hasText: /^Completed in/u })
      .waitFor({ timeout: 30_000 });
    expect(await tab.locator("plankit-reply [part=reply]").textContent()).toBe(state.reply?.text);
    // StrictMode is not on, and the store is made once: one request for the run's events.
    expect(reactRoutes.requests.map((request) => request.path)).toEqual(["/v1/runs/run_123/events"]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});
