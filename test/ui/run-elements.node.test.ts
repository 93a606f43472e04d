/**
 * `<plankit-run>` in headless Chromium: recorded runs of a real
 * `AgentRuntime` (3, 12 and 40 steps, a failed step, a phone's width) drawn
 * without overlaps or overflow, with screenshots in test-results/ui/; the
 * approval card driven by the keyboard alone against a live runtime in the
 * page; axe-core finds no violation; and the same element in a React 19
 * page through `useRun`.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replay } from "../../src/events.ts";
import type { RuntimeEvent } from "../../src/index.ts";
import {
  bundleForBrowser,
  type LocalServer,
  launchChromium,
  serveOnLocalhost,
  servePage,
} from "../fixtures/browser.ts";
import { layoutProblems } from "./layout-invariants.ts";
import { type RunEventsRoutes, serveRunEvents } from "./run-events-server.ts";
import { plans, recordRun } from "./run-page/demo-runtime.ts";
import type { DrawnGraph, RunPage } from "./run-page/run-page.ts";

const screenshots = fileURLToPath(new URL("../../test-results/ui/", import.meta.url));

let server: LocalServer;
let origin: string;
let browser: Browser;
const recorded: Partial<Record<keyof typeof plans, RuntimeEvent[]>> = {};
const routes: RunEventsRoutes = { runs: {}, drops: [], token: "t0k", requests: [] };

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  for (const name of Object.keys(plans) as (keyof typeof plans)[]) recorded[name] = await recordRun(plans[name]);
  const script = await bundleForBrowser(new URL("./run-page/run-page.ts", import.meta.url), {
    "process.env.NODE_ENV": '"development"',
  });
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>plankit run view</title><style>body{margin:0;padding:8px}</style><body><main><h1>Run</h1><div id="view"></div></main><script type="module" src="/page.js"></script></body></html>';
  routes.runs["failed"] = recorded.failed!;
  const page = servePage("/page.js", script, html);
  server = await serveOnLocalhost((request, response) => {
    if (!serveRunEvents(routes, request, response)) page(request, response);
  });
  origin = server.origin;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
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

const drawnGraph = (tab: Page) =>
  tab.evaluate(() => (globalThis as unknown as { runPage: RunPage }).runPage.drawnGraph()) as Promise<DrawnGraph>;
const axeViolations = (tab: Page) => tab.evaluate(() => (globalThis as unknown as { runPage: RunPage }).runPage.axe());
/** The steps the list shows: id, status and arguments. */
const listedSteps = (tab: Page) =>
  tab.evaluate(() =>
    [
      ...(document
        .querySelector("plankit-run")
        ?.shadowRoot?.querySelector("plankit-steps")
        ?.shadowRoot?.querySelectorAll("li") ?? []),
    ].map((item) => ({
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
    return active === null
      ? ""
      : `${active.tagName.toLowerCase()}${active.getAttribute("part") === null ? "" : `[part=${active.getAttribute("part")}]`}`;
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
      expect(steps.map((step) => [step.id, step.status])).toEqual(
        state.steps.map((step) => [step.step.id, step.status]),
      );
      if (name === "failed") {
        expect(steps.find((step) => step.id === "s2")?.note).toBe("the fact service is down (503)");
        expect(
          await tab.evaluate(
            () => document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=run-status]")?.textContent,
          ),
        ).toMatch(/^Ended: failed/u);
      } else {
        const reply = await tab.evaluate(
          () =>
            document
              .querySelector("plankit-run")
              ?.shadowRoot?.querySelector("plankit-reply")
              ?.shadowRoot?.querySelector("[part=reply]")?.textContent,
        );
        expect(reply).toBe(state.reply?.text);
      }
      expect(await axeViolations(tab)).toEqual([]);
      expect(errors).toEqual([]);
      await tab.close();
    }, 60_000);
  }
  it("the three-step plan cuts its long argument in the box and keeps it whole in the title", async () => {
    const { tab } = await open(375);
    await tab.evaluate(
      (list) => (globalThis as unknown as { runPage: RunPage }).runPage.showRecorded(list),
      recorded.three!,
    );
    const s2 = (await drawnGraph(tab)).nodes.find((node) => node.id === "s2")!;
    expect(s2.shown[1]).toMatch(/…$/u);
    expect(s2.title).toContain("Tokyo, a city whose name is long enough to be cut in the box: facts about Paris");
    await tab.close();
  }, 60_000);
});

const livePlan = [
  { id: "s1", tool: "lookup", args: { topic: "Paris" } },
  { id: "s2", tool: "save_note", args: { text: "Paris: {{s1.value}}" } },
  { id: "s3", reply: "Saved {{s2.saved}} characters." },
];

/** Starts the live run and waits for its approval card to take the focus. */
async function startLive(tab: Page): Promise<void> {
  await tab.evaluate((plan) => (globalThis as unknown as { runPage: RunPage }).runPage.startLive(plan), livePlan);
  await tab.locator('button[data-approve="s2"]').waitFor({ timeout: 30_000 });
  await tab.waitForFunction(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute("part") === "card";
  });
}

/** The live run's end: its state and the tools it called. */
async function liveEnd(tab: Page) {
  await tab.waitForFunction(
    () => (globalThis as unknown as { runPage: RunPage }).runPage.store?.getSnapshot().status === "ended",
    undefined,
    { timeout: 30_000 },
  );
  return tab.evaluate(() => {
    const { store, toolLog, decisions } = (globalThis as unknown as { runPage: RunPage }).runPage;
    const state = store!.getSnapshot();
    return { reason: state.reason, reply: state.reply?.text, toolLog, decisions };
  });
}

/** What the approval card shows for a decided step. */
const decidedItem = (tab: Page, stepId: string) =>
  tab.evaluate(
    (id) =>
      document
        .querySelector("plankit-run")
        ?.shadowRoot?.querySelector("plankit-approval")
        ?.shadowRoot?.querySelector(`li[data-step="${id}"].decided`)?.textContent ?? "",
    stepId,
  );

describe("<plankit-run> with a live AgentRuntime, by keyboard alone", () => {
  it("moves the focus to the approval card, is axe-clean while it waits, and approves with Tab and Enter", async () => {
    const { tab, errors } = await open(900);
    await startLive(tab);
    expect(await axeViolations(tab)).toEqual([]);
    await tab.screenshot({ path: `${screenshots}approval-900.png`, fullPage: true });
    await tab.keyboard.press("Tab");
    expect(await focused(tab)).toBe("textarea[part=arguments]");
    await tab.keyboard.press("Tab");
    expect(await focused(tab)).toBe("input[part=reason]");
    await tab.keyboard.press("Tab");
    expect(await focused(tab)).toBe("button[part=approve-button]");
    await tab.keyboard.press("Enter");
    const end = await liveEnd(tab);
    expect(end.reason).toBe("completed");
    expect(end.toolLog).toEqual([
      { tool: "lookup", arguments: { topic: "Paris" } },
      { tool: "save_note", arguments: { text: "Paris: facts about Paris" } },
    ]);
    expect(end.decisions).toEqual([{ stepId: "s2", approved: true }]);
    expect(end.reply).toBe("Saved 24 characters.");
    expect(await decidedItem(tab, "s2")).toBe('save_note (s2) approved{"text":"Paris: facts about Paris"}');
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);

  it("refuses edited arguments that are not a JSON object, inline, then runs the edited ones and shows them", async () => {
    const { tab, errors } = await open(375);
    await startLive(tab);
    const errorText = () =>
      tab.evaluate(
        () =>
          document
            .querySelector("plankit-run")
            ?.shadowRoot?.querySelector("plankit-approval")
            ?.shadowRoot?.querySelector("[part=error]")?.textContent ?? "",
      );
    const invalid = () =>
      tab.evaluate(
        () =>
          document
            .querySelector("plankit-run")
            ?.shadowRoot?.querySelector("plankit-approval")
            ?.shadowRoot?.querySelector("textarea")
            ?.getAttribute("aria-invalid") ?? null,
      );
    const submit = async (text: string) => {
      await tab.keyboard.press("ControlOrMeta+A");
      await tab.keyboard.type(text);
      await tab.keyboard.press("Tab");
      await tab.keyboard.press("Tab");
      expect(await focused(tab)).toBe("button[part=approve-button]");
      await tab.keyboard.press("Enter");
    };
    await tab.keyboard.press("Tab");
    await submit('{"text": ');
    expect(await errorText()).toMatch(/^The arguments of s2 are not valid JSON: /u);
    expect(await focused(tab)).toBe("textarea[part=arguments]");
    expect(await invalid()).toBe("true");
    expect(await axeViolations(tab)).toEqual([]);
    await tab.screenshot({ path: `${screenshots}approval-error-375.png`, fullPage: true });
    await submit('["groceries"]');
    expect(await errorText()).toBe('The arguments of s2 must be a JSON object ({ "name": value, … }), not an array');
    expect(await focused(tab)).toBe("textarea[part=arguments]");
    await submit('{"text":"milk and eggs"}');
    const end = await liveEnd(tab);
    expect(end.decisions).toEqual([{ stepId: "s2", approved: true, arguments: { text: "milk and eggs" } }]);
    expect(end.toolLog.filter((call) => call.tool === "save_note")).toEqual([
      { tool: "save_note", arguments: { text: "milk and eggs" } },
    ]);
    expect(end.reply).toBe("Saved 13 characters.");
    expect((await listedSteps(tab)).find((step) => step.id === "s2")).toEqual({
      id: "s2",
      status: "succeeded",
      arguments: '{"text":"milk and eggs"}',
      note: "",
    });
    expect(await decidedItem(tab, "s2")).toBe('save_note (s2) approved{"text":"milk and eggs"}');
    expect((await drawnGraph(tab)).nodes.find((node) => node.id === "s2")?.title).toContain('{"text":"milk and eggs"}');
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);

  it("denies with a reason: the step is skipped, its tool never runs, and the card says why", async () => {
    const { tab, errors } = await open(900);
    await startLive(tab);
    await tab.keyboard.press("Tab");
    await tab.keyboard.press("Tab");
    expect(await focused(tab)).toBe("input[part=reason]");
    await tab.keyboard.type("not today");
    await tab.keyboard.press("Tab");
    await tab.keyboard.press("Tab");
    expect(await focused(tab)).toBe("button[part=deny-button]");
    await tab.keyboard.press("Enter");
    const end = await liveEnd(tab);
    expect(end.decisions).toEqual([{ stepId: "s2", approved: false, reason: "not today" }]);
    expect(end.toolLog.map((call) => call.tool)).toEqual(["lookup"]);
    expect(end.reason).toBe("completed");
    expect((await listedSteps(tab)).find((step) => step.id === "s2")?.status).toBe("skipped");
    expect(await decidedItem(tab, "s2")).toBe("save_note (s2) denied: not today");
    expect(await axeViolations(tab)).toEqual([]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});

describe("<plankit-run src token>", () => {
  it("reads a run's event stream with the token, resumes after a dropped connection, and shows the run", async () => {
    routes.requests.length = 0;
    routes.drops.push(6);
    const { tab, errors } = await open(800);
    await tab.evaluate(() => {
      (document.querySelector("#view") as HTMLElement).innerHTML =
        '<plankit-run src="/v1/runs/failed/events" token="t0k"></plankit-run>';
    });
    await tab.waitForFunction(
      () =>
        /^Ended: failed/u.test(
          document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=run-status]")?.textContent ?? "",
        ),
      undefined,
      { timeout: 30_000 },
    );
    const state = replay(recorded.failed!);
    expect((await listedSteps(tab)).map((step) => [step.id, step.status])).toEqual(
      state.steps.map((step) => [step.step.id, step.status]),
    );
    expect(routes.requests.map((request) => [request.lastEventId, request.authorization])).toEqual([
      [undefined, "Bearer t0k"],
      ["5", "Bearer t0k"],
    ]);
    expect(await axeViolations(tab)).toEqual([]);
    // Taken out, its store is closed; put back, it reads the run again from the start.
    const reread = await tab.evaluate(async () => {
      const view = document.querySelector("plankit-run") as HTMLElement & {
        store?: { getConnection(): { status: string } };
      };
      const before = view.store;
      view.remove();
      await new Promise((resolve) => setTimeout(resolve, 0));
      const closed = before?.getConnection().status;
      document.querySelector("#view")?.append(view);
      return { closed, replaced: view.store !== before && view.store !== undefined };
    });
    expect(reread).toEqual({ closed: "done", replaced: true });
    await tab.waitForFunction(() =>
      /^Ended: failed/u.test(
        document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=run-status]")?.textContent ?? "",
      ),
    );
    expect(routes.requests.at(-1)?.lastEventId).toBeUndefined();
    expect(routes.requests).toHaveLength(3);
    expect(errors.filter((error) => !error.includes("ERR_"))).toEqual([]);
    await tab.close();
  }, 60_000);
});

describe("<plankit-run> stops a live run", () => {
  it("from the keyboard: Shift+Tab from the card reaches Stop, and the run ends aborted without the waiting tool", async () => {
    const { tab, errors } = await open(900);
    await startLive(tab);
    expect(
      await tab.evaluate(
        () =>
          document
            .querySelector("plankit-run")
            ?.shadowRoot?.querySelector("plankit-approval")
            ?.shadowRoot?.querySelector(".title")?.textContent,
      ),
    ).toBe("save_note (s2): Save a note for the user");
    await tab.keyboard.press("Shift+Tab");
    expect(await focused(tab)).toBe("button[part=stop-button]");
    await tab.keyboard.press("Enter");
    const end = await liveEnd(tab);
    expect(end.reason).toBe("aborted");
    expect(end.toolLog.map((call) => call.tool)).toEqual(["lookup"]);
    expect(
      await tab.evaluate(
        () => document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=run-status]")?.textContent,
      ),
    ).toMatch(/^Ended: aborted/u);
    expect(
      await tab.evaluate(() =>
        document.querySelector("plankit-run")?.shadowRoot?.querySelector("[part=stop-button]")?.hasAttribute("hidden"),
      ),
    ).toBe(true);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});

describe("<plankit-run> in a React 19 page", () => {
  it("renders from useRun's store in StrictMode: every step, the reply, axe-clean", async () => {
    const { tab, errors } = await open(1024);
    await tab.evaluate(
      (list) => (globalThis as unknown as { runPage: RunPage }).runPage.mountReact(list),
      recorded.twelve!,
    );
    await tab.locator(".react-status", { hasText: "ended: 12 steps" }).waitFor({ timeout: 30_000 });
    await tab.screenshot({ path: `${screenshots}react-1024.png`, fullPage: true });
    const state = replay(recorded.twelve!);
    expect((await listedSteps(tab)).map((step) => [step.id, step.status])).toEqual(
      state.steps.map((step) => [step.step.id, step.status]),
    );
    const reply = await tab.evaluate(
      () =>
        document
          .querySelector("plankit-run")
          ?.shadowRoot?.querySelector("plankit-reply")
          ?.shadowRoot?.querySelector("[part=reply]")?.textContent,
    );
    expect(reply).toBe(state.reply?.text);
    const graph = await drawnGraph(tab);
    expect(graph.nodes).toHaveLength(12);
    expect(layoutProblems(graph.nodes, graph.edges, graph.svgWidth)).toEqual([]);
    // The store's snapshot is the same object between events, so React renders a bounded number of times.
    const renders = await tab.evaluate(() => (globalThis as unknown as { runPage: RunPage }).runPage.renders);
    expect(renders).toBeLessThanOrEqual(2 * (recorded.twelve!.length + 2));
    expect(await axeViolations(tab)).toEqual([]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});
