/**
 * Screenshots of the run elements in headless Chromium, compared pixel by
 * pixel with the baselines committed in `test/ui/screenshots/`: the plan
 * graph at 3, 12 and 40 steps, the approval card, a run with a failed step,
 * and a run at a phone's width. A pixel differs when a channel moves by more
 * than {@link channelTolerance}; a screenshot fails when more than
 * {@link differingShare} of its pixels differ, or its size changed. The
 * compare decodes both PNGs in the page (canvas `ImageData`), so it needs no
 * image library. Failures leave the actual image and a diff (differing pixels
 * in magenta) in `test-results/ui/screenshots/`.
 *
 * `PLANKIT_UPDATE_SCREENSHOTS=1` writes the baselines instead (once, after a
 * deliberate change of the look; commit them). A missing baseline fails.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeEvent } from "../../src/index.ts";
import {
  bundleForBrowser,
  type LocalServer,
  launchChromium,
  serveOnLocalhost,
  servePage,
} from "../fixtures/browser.ts";
import { plans, recordRun } from "./run-page/demo-runtime.ts";
import type { RunPage } from "./run-page/run-page.ts";

const baselines = fileURLToPath(new URL("./screenshots/", import.meta.url));
const failures = fileURLToPath(new URL("../../test-results/ui/screenshots/", import.meta.url));
const update = process.env["PLANKIT_UPDATE_SCREENSHOTS"] === "1";
/** How far a channel (0–255) may move before the pixel counts as changed: anti-aliasing, not a new colour. */
const channelTolerance = 16;
/** The share of changed pixels a screenshot may have. */
const differingShare = 0.001;

let server: LocalServer;
let origin: string;
let browser: Browser;
const recorded: Partial<Record<keyof typeof plans, RuntimeEvent[]>> = {};

/**
 * A recorded run with its clock replaced by a count, so the durations it
 * shows are the same on every run of the test.
 */
function steadyClock(events: readonly RuntimeEvent[]): RuntimeEvent[] {
  return events.map((event, index) => {
    const steady = { ...event, t: index * 10 } as RuntimeEvent & { durationMs?: number };
    if ("durationMs" in steady) steady.durationMs = event.type === "run-end" ? 1500 : 10;
    return steady;
  });
}

beforeAll(async () => {
  mkdirSync(failures, { recursive: true });
  mkdirSync(baselines, { recursive: true });
  for (const name of Object.keys(plans) as (keyof typeof plans)[])
    recorded[name] = steadyClock(await recordRun(plans[name]));
  const script = await bundleForBrowser(new URL("./run-page/run-page.ts", import.meta.url), {
    "process.env.NODE_ENV": '"development"',
  });
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>plankit run view</title><style>body{margin:0;padding:8px}</style><body><main><div id="view"></div></main><script type="module" src="/page.js"></script></body></html>';
  server = await serveOnLocalhost(servePage("/page.js", script, html));
  origin = server.origin;
  browser = await launchChromium(["--force-color-profile=srgb", "--hide-scrollbars"]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A new tab on the page at a width. */
async function open(width: number): Promise<Page> {
  const tab = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  await tab.goto(origin, { waitUntil: "load", timeout: 60_000 });
  await tab.waitForFunction(() => (globalThis as { runPage?: RunPage }).runPage !== undefined);
  return tab;
}

/** Shows a recorded run in `<plankit-run>`. */
async function showRecorded(tab: Page, name: keyof typeof plans): Promise<void> {
  await tab.evaluate(
    (list) => (globalThis as unknown as { runPage: RunPage }).runPage.showRecorded(list),
    recorded[name]!,
  );
}

/**
 * Screenshots an element and compares it with its baseline (or writes the
 * baseline when updating).
 *
 * @returns the changed pixels and the total, or `written`.
 */
async function compareWithBaseline(tab: Page, target: Locator, name: string) {
  const actual = await target.screenshot({ animations: "disabled", caret: "hide" });
  const baseline = `${baselines}${name}.png`;
  if (update) {
    writeFileSync(baseline, actual);
    return "written";
  }
  if (!existsSync(baseline))
    throw new Error(`No baseline ${baseline}: run with PLANKIT_UPDATE_SCREENSHOTS=1 once and commit it`);
  const difference = await tab.evaluate(
    ({ actual, expected, tolerance }) =>
      (globalThis as unknown as { runPage: RunPage }).runPage.compareImages(actual, expected, tolerance),
    {
      actual: actual.toString("base64"),
      expected: readFileSync(baseline).toString("base64"),
      tolerance: channelTolerance,
    },
  );
  const share = difference.total === 0 ? 1 : difference.differing / difference.total;
  const withinTolerance = difference.actualSize === difference.expectedSize && share <= differingShare;
  if (!withinTolerance) {
    writeFileSync(`${failures}${name}.actual.png`, actual);
    if (difference.diff !== "") writeFileSync(`${failures}${name}.diff.png`, Buffer.from(difference.diff, "base64"));
  }
  return {
    size: difference.actualSize,
    expectedSize: difference.expectedSize,
    withinTolerance,
    differing: difference.differing,
  };
}

/** What a screenshot that matches its baseline compares as. */
function matches() {
  return update ? "written" : expect.objectContaining({ withinTolerance: true });
}

describe("the run elements look as their baselines", () => {
  for (const [name, width] of [
    ["three", 1024],
    ["twelve", 1024],
    ["forty", 1280],
  ] as const) {
    it(`the plan graph of ${name} steps at ${width} px`, async () => {
      const tab = await open(width);
      await showRecorded(tab, name);
      const graph = tab.locator("plankit-plan-graph");
      expect(await compareWithBaseline(tab, graph, `graph-${name}-${width}`)).toEqual(matches());
      await tab.close();
    }, 60_000);
  }

  it("a run with a failed step", async () => {
    const tab = await open(800);
    await showRecorded(tab, "failed");
    expect(await compareWithBaseline(tab, tab.locator("plankit-run"), "run-failed-800")).toEqual(matches());
    await tab.close();
  }, 60_000);

  it("a run at a phone's width (375 px)", async () => {
    const tab = await open(375);
    await showRecorded(tab, "twelve");
    expect(await compareWithBaseline(tab, tab.locator("plankit-run"), "run-twelve-375")).toEqual(matches());
    await tab.close();
  }, 60_000);

  it("the approval card", async () => {
    const tab = await open(900);
    await tab.evaluate(
      (plan) => (globalThis as unknown as { runPage: RunPage }).runPage.startLive(plan),
      [
        { id: "s1", tool: "lookup", args: { topic: "Paris" } },
        { id: "s2", tool: "save_note", args: { text: "Paris: {{s1.value}}" } },
        { id: "s3", reply: "Saved {{s2.saved}} characters." },
      ],
    );
    await tab.locator('button[data-approve="s2"]').waitFor({ timeout: 30_000 });
    expect(await compareWithBaseline(tab, tab.locator("plankit-approval"), "approval-card-900")).toEqual(matches());
    await tab.close();
  }, 60_000);
});
