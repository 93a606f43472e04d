/**
 * `<plankit-run>` in headless Chromium over live runs of an `AgentRuntime`
 * with the scripted model, shown one after another in the same view: the
 * approval card offers a decision only for steps that still wait for one,
 * and the Stop button works for each new run.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModulePageSuite, serveModulePage } from "../fixtures/browser.ts";
import type { RunControlsPage } from "./run-page/run-controls-page.ts";

let suite: ModulePageSuite;

beforeAll(async () => {
  suite = await serveModulePage(new URL("./run-page/run-controls-page.ts", import.meta.url), "plankit run controls");
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

/** A new tab on the page, failing the test on any page error. */
async function open(): Promise<{ tab: Page; errors: string[] }> {
  const tab = await suite.browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  tab.on("pageerror", (error) => errors.push(error.message));
  await tab.goto(suite.server.origin, { waitUntil: "load", timeout: 60_000 });
  await tab.waitForFunction(() => (globalThis as { runControls?: RunControlsPage }).runControls !== undefined);
  return { tab, errors };
}

/** Starts a run in the page's view. */
const start = (tab: Page, plan: object[], replan?: object[]) =>
  tab.evaluate(
    ([steps, patch]) => (globalThis as unknown as { runControls: RunControlsPage }).runControls.start(steps, patch),
    [plan, replan] as const,
  );

/** Waits until the page's run state passes a test written as a function body over `state`. */
const waitForState = (tab: Page, test: string) =>
  tab.waitForFunction(
    (body) => {
      const state = (globalThis as unknown as { runControls: RunControlsPage }).runControls.store?.getSnapshot();
      return state !== undefined && (new Function("state", `return ${body}`) as (value: unknown) => boolean)(state);
    },
    test,
    { timeout: 30_000 },
  );

/** What the approval card and the Stop button show. */
const controls = (tab: Page) =>
  tab.evaluate(() => {
    const run = document.querySelector("plankit-run")?.shadowRoot;
    const card = run?.querySelector("plankit-approval")?.shadowRoot;
    const stop = run?.querySelector<HTMLButtonElement>("[part=stop-button]");
    return {
      pending: card?.querySelector("section")?.getAttribute("data-pending"),
      heading: card?.querySelector("h2")?.textContent,
      buttons: [...(card?.querySelectorAll("button") ?? [])].map((button) => button.textContent),
      items: [...(card?.querySelectorAll("li") ?? [])].map((item) => item.textContent),
      stop: { hidden: stop?.hidden, disabled: stop?.disabled },
    };
  });

/**
 * The stroke of a step's box in the plan graph; for `waiting`, that of a box that waits for approval.
 *
 * @param tab - the page.
 * @param stepId - the step, or `waiting`.
 * @returns the computed colour.
 */
const nodeStroke = (tab: Page, stepId: string) =>
  tab.evaluate((id) => {
    const graph = document.querySelector("plankit-run")?.shadowRoot?.querySelector("plankit-plan-graph")?.shadowRoot;
    if (id !== "waiting") return getComputedStyle(graph?.querySelector(`g[data-step="${id}"] rect`) as Element).stroke;
    // A box drawn as the element draws a planned step that waits for a decision.
    const svg = graph?.querySelector("svg");
    const node = document.createElementNS("http://www.w3.org/2000/svg", "g");
    node.setAttribute("class", "node");
    node.setAttribute("data-status", "planned");
    node.setAttribute("data-approval", "requested");
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    node.append(rect);
    svg?.append(node);
    const stroke = getComputedStyle(rect).stroke;
    node.remove();
    return stroke;
  }, stepId);

describe("<plankit-run> over live runs in one view", () => {
  it("offers no decision for a step a re-plan replaced while its request waited", async () => {
    const { tab, errors } = await open();
    await start(
      tab,
      [
        { id: "s1", tool: "lookup", args: { topic: "down" } },
        { id: "s2", tool: "save_note", args: { text: "Paris: {{s1.value}}" } },
        { id: "s3", reply: "Saved {{s2.saved}} characters." },
      ],
      [
        { id: "r1", tool: "hold", args: {} },
        { id: "r2", reply: "Nothing was saved." },
      ],
    );
    // The re-plan skipped s2 while the run goes on (r1 holds it): s2 no longer waits for anyone.
    await waitForState(
      tab,
      'state.steps.some((step) => step.step.id === "r1" && step.status === "running") && state.awaitingApproval.length === 0',
    );
    await tab.waitForTimeout(50);
    expect(await controls(tab)).toMatchObject({
      pending: "false",
      heading: "Approvals",
      buttons: [],
      items: ["save_note (s2) not decided: Re-plan 1 replaced it"],
    });
    // Nor does the graph draw it in the colour of a step that waits for a person.
    expect(await nodeStroke(tab, "waiting")).toBe("rgb(154, 103, 0)"); // --plankit-warning's default, #9a6700
    expect(await nodeStroke(tab, "s2")).not.toBe(await nodeStroke(tab, "waiting"));
    await tab.evaluate(() => (globalThis as unknown as { runControls: RunControlsPage }).runControls.release());
    await waitForState(tab, 'state.status === "ended"');
    expect((await controls(tab)).items).toEqual(["save_note (s2) not decided: Re-plan 1 replaced it"]);
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);

  it("shows an enabled Stop button for the next run after one was stopped, and it stops that run too", async () => {
    const { tab, errors } = await open();
    const plan = [
      { id: "s1", tool: "save_note", args: { text: "milk" } },
      { id: "s2", reply: "Saved {{s1.saved}} characters." },
    ];
    for (const round of [1, 2]) {
      await start(tab, plan);
      await waitForState(tab, "state.awaitingApproval.length === 1");
      await tab.waitForTimeout(50);
      expect((await controls(tab)).stop, `run ${round}`).toEqual({ hidden: false, disabled: false });
      await tab.locator("plankit-run").locator("[part=stop-button]").click();
      await waitForState(tab, 'state.status === "ended" && state.reason === "aborted"');
    }
    expect(errors).toEqual([]);
    await tab.close();
  }, 60_000);
});
