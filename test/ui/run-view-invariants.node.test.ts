/**
 * `<plankit-run>` in headless Chromium against live runs: fast-check, in the
 * page, runs random plans with approvals, failures, re-plans and stops one
 * after another in one view, and after every change of the store the step
 * list, the graph, the approval card, the Stop button, the reply and the
 * status line agree with the store's state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModulePageSuite, serveModulePage } from "../fixtures/browser.ts";
import type { RunViewInvariantsPage } from "./run-page/run-view-invariants-page.ts";

let suite: ModulePageSuite;

beforeAll(async () => {
  suite = await serveModulePage(new URL("./run-page/run-view-invariants-page.ts", import.meta.url), "plankit run view");
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

describe("<plankit-run> over live runs", () => {
  it("shows what the store's state says after every change, for any plan, answers and re-plans", async () => {
    const tab = await suite.browser.newPage({ viewport: { width: 900, height: 900 } });
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(suite.server.origin, { waitUntil: "load", timeout: 60_000 });
    await tab.waitForFunction(
      () => (globalThis as { runViewInvariants?: RunViewInvariantsPage }).runViewInvariants !== undefined,
    );
    const report = await tab.evaluate(
      (runs) => (globalThis as unknown as { runViewInvariants: RunViewInvariantsPage }).runViewInvariants.check(runs),
      100,
    );
    expect(report).toBe("");
    expect(errors).toEqual([]);
    await tab.close();
  }, 120_000);
});
