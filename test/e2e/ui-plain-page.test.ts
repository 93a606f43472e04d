/**
 * `plankit/ui` on a plain HTML page against `wrangler dev`: the page only
 * imports `plankit/ui` (through an import map) and writes `<plankit-run
 * src token>` for a durable run started on the Worker; the element follows
 * the run live, across origins, from its first steps to its reply.
 */
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { launchChromium } from "../fixtures/browser.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const token = "e2e-ui-token-5c2a";

let worker: WranglerDev;
let pages: Server;
let origin: string;
let browser: Browser;
/** The page's HTML for a run's event stream: nothing but the import of plankit/ui and the element. */
const plainPage = (events: string) => `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>A run</title>
<script type="importmap">{ "imports": { "plankit/ui": "/plankit-ui.js" } }</script>
<script type="module">import "plankit/ui";</script>
<main><plankit-run src="${events}" token="${token}"></plankit-run></main>
</html>`;

beforeAll(async () => {
  const bundle = await build({
    absWorkingDir: root,
    entryPoints: ["src/ui.ts"],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "error",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const port = await findFreePort();
  origin = `http://127.0.0.1:${port}`;
  pages = createServer((request, response) => {
    const url = new URL(request.url ?? "/", origin);
    if (url.pathname === "/plankit-ui.js")
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    else
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(plainPage(url.searchParams.get("events") ?? ""));
  });
  await new Promise<void>((resolve) => pages.listen(port, "127.0.0.1", resolve));
  worker = await startWranglerDev(root, { vars: { PLANKIT_TOKEN: token, PLANKIT_CORS_ORIGINS: origin } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await new Promise((resolve) => pages?.close(resolve));
});

describe("a plain page with <plankit-run src>", () => {
  it("shows a durable run on the Worker live, takes the person's approval across origins, then shows the reply", async () => {
    const started = await fetch(`${worker.url}/v1/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "Save a note titled groceries with the text milk and eggs", durable: true }),
    });
    expect(started.status).toBe(202);
    const { id, durable } = (await started.json()) as { id: string; durable: boolean };
    expect(durable).toBe(true);
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (request) => {
      if (request.url().startsWith(worker.url))
        requests.push(`${request.method()} ${new URL(request.url()).pathname.replace(id, ":id")}`);
    });
    const events = `${worker.url}/v1/runs/${encodeURIComponent(id)}/events`;
    await page.goto(`${origin}/?events=${encodeURIComponent(events)}`, { waitUntil: "load" });
    // Live: the run waits for a person, and the page shows it waiting.
    const status = page.locator("plankit-run [part=run-status]");
    await status.filter({ hasText: /^Waiting for your approval/u }).waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toBe("Waiting for your approval of 1 step · 0 of 2 steps done");
    expect(
      await page
        .locator("plankit-plan-graph g.node")
        .evaluateAll((nodes) =>
          nodes.map((node) => `${node.getAttribute("data-step")}:${node.getAttribute("data-status")}`),
        ),
    ).toEqual(["s1:planned", "s2:planned"]);
    await page.locator("plankit-approval [part=approve-button]").click();
    await status.filter({ hasText: /^Completed in/u }).waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toMatch(/^Completed in .+ · 1 step: 1 done$/u);
    expect(await page.locator("plankit-reply [part=reply]").textContent()).toBe(
      'I saved the note "groceries" (13 characters).',
    );
    expect(requests).toContain("POST /v1/runs/:id/approvals");
    // The page's own script is the import and nothing else.
    expect(await page.evaluate(() => [...document.scripts].map((script) => script.textContent?.trim()))).toEqual([
      '{ "imports": { "plankit/ui": "/plankit-ui.js" } }',
      'import "plankit/ui";',
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
