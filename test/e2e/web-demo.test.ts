import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemo } from "../../scripts/lib/build-demo.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const screenshots = join(root, "test-results", "e2e");
const launchArguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

let server: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  await buildDemo(root);
  server = await startWranglerDev(root);
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: launchArguments, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the demo page, collecting page errors and the API requests it makes. */
async function openDemo(viewport = { width: 1280, height: 900 }): Promise<{ page: Page; errors: string[]; runRequests: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const runRequests: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/v1/run") runRequests.push(request.method());
  });
  // Ready is when the script has run and listed the tools; the page's "load" (styles, icon) is not waited for,
  // so a slow asset from wrangler dev on a loaded machine cannot fail a test about the demo's behaviour.
  await page.goto(`${server.url}/`, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await page.getByTestId("tools").locator("li").first().waitFor({ timeout: 60_000 });
  return { page, errors, runRequests };
}

/** What the page shows at this moment. */
function snapshot(page: Page): Promise<{ steps: number; ended: boolean; reply: string; states: string[] }> {
  return page.evaluate(() => ({
    steps: document.querySelectorAll("[data-step-id]").length,
    ended: document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
    reply: document.querySelector('[data-testid="reply"]')?.textContent ?? "",
    states: [...document.querySelectorAll<SVGGElement>("[data-step-id]")].map((node) => `${node.dataset["stepId"]}:${node.dataset["state"]}`),
  }));
}

/** Runs a request and checks that steps appear, and the graph grows, before the run ends. */
async function runAndWatch(page: Page, query: string, start: () => Promise<void>): Promise<{ first: Awaited<ReturnType<typeof snapshot>>; last: Awaited<ReturnType<typeof snapshot>> }> {
  await page.getByTestId("query").fill(query);
  await start();
  await page.locator("[data-step-id]").first().waitFor({ timeout: 20_000 });
  const first = await snapshot(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null, undefined, { timeout: 45_000 });
  const last = await snapshot(page);
  // Let the last nodes finish fading in before any screenshot.
  await page.waitForTimeout(400);
  return { first, last };
}

describe("the web demo in Chromium against wrangler dev", () => {
  it("runs a request on the Worker: steps appear while the plan streams, then the reply", async () => {
    const { page, errors, runRequests } = await openDemo();
    expect(await page.getByTestId("model").textContent()).toContain("plankit-demo (offline, scripted)");
    const { first, last } = await runAndWatch(page, "compare the populations of Tokyo and Paris and compute their ratio", async () => {
      await page.getByTestId("run").click();
    });
    expect(first.ended).toBe(false);
    expect(first.reply).toBe("");
    expect(first.steps).toBeLessThan(last.steps);
    expect(last.steps).toBe(4);
    expect(last.states).toEqual(["s1:done", "s2:done", "s3:done", "s4:done"]);
    expect(last.reply).toContain("So Tokyo's population is 6.58 times that of Paris.");
    expect(await page.getByTestId("reply").getAttribute("aria-live")).toBe("polite");
    expect(await page.locator('#dag path.edge[data-from="s1"][data-to="s3"]').count()).toBe(1);
    expect(await page.getByTestId("steps").locator("li").first().textContent()).toMatch(/s1 · kb_lookup\s*done\s*took \d+ ms/);
    expect(runRequests).toEqual(["POST"]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "worker-mode.png"), fullPage: true });
    await page.close();
  });

  it("runs a request entirely in the browser with the demo model", async () => {
    const { page, errors, runRequests } = await openDemo();
    await page.getByTestId("mode-browser").check();
    await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
    const { first, last } = await runAndWatch(page, "How tall is the Eiffel Tower in feet?", async () => {
      await page.getByTestId("run").click();
    });
    expect(first.ended).toBe(false);
    expect(first.reply).toBe("");
    expect(last.states).toEqual(["s1:done", "s2:done", "s3:done"]);
    expect(last.reply).toContain("That is 330 m = 1,082.68 ft.");
    expect(runRequests).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "browser-mode.png"), fullPage: true });
    await page.close();
  });

  it("is usable by keyboard and readable at phone width", async () => {
    const { page, errors } = await openDemo({ width: 375, height: 812 });
    const query = page.getByLabel("What should the agent do?");
    await query.focus();
    const { last } = await runAndWatch(page, "What time is it in Tokyo?", async () => {
      await query.press("Enter");
    });
    expect(last.reply).toMatch(/^In Tokyo it is \w+day, .+ \(Asia\/Tokyo, UTC\+09:00\)\. Source: IANA time zone database\.$/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await page.locator("#dag").boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(375);
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.id ?? "")).not.toBe("query");
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "phone-width.png"), fullPage: true });
    await page.close();
  });

  it("shows a failed step, the re-plan and the reply that explains it", async () => {
    const { page, errors } = await openDemo();
    const { last } = await runAndWatch(page, "What is the population of Atlantis?", async () => {
      await page.getByTestId("run").click();
    });
    expect(last.states).toEqual(["s1:failed", "s2:skipped", "s3:done"]);
    expect(last.reply).toBe('The knowledge base has no fact about "population of Atlantis".');
    expect(await page.locator("#dag .node.replanned").count()).toBe(1);
    expect(await page.getByTestId("timeline").textContent()).toContain("replan 1");
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "replan.png"), fullPage: true });
    await page.close();
  });

  it("guides a conversation through its phases on the Worker, carrying the state between turns", async () => {
    const { page, errors } = await openDemo();
    const guideRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/v1/guide") guideRequests.push(request.postData() ?? "");
    });
    const assistant = page.getByTestId("guide-log").locator('li[data-role="assistant"]');
    await page.getByTestId("guide-message").fill("I'd like to go to Tokyo");
    await page.getByTestId("guide-send").click();
    await assistant.first().waitFor({ timeout: 20_000 });
    expect(await assistant.first().textContent()).toBe("Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08.");
    expect(await page.getByTestId("guide-phases").locator("li").evaluateAll((items) => items.map((item) => `${item.textContent}:${(item as HTMLElement).dataset["state"]}`))).toEqual([
      "collect:current",
      "research:pending",
      "summarize:pending",
    ]);
    await page.getByTestId("guide-message").fill("from 2026-05-01 to 2026-05-08");
    await page.getByTestId("guide-message").press("Enter");
    await page.getByTestId("guide-status").filter({ hasText: "The conversation is complete." }).waitFor({ timeout: 30_000 });
    expect(await assistant.nth(1).textContent()).toContain("Here is your trip: Trip to Tokyo from 2026-05-01 to 2026-05-08 (7 nights).");
    expect(await page.locator('[data-testid="guide-phases"] li[data-state="done"]').count()).toBe(3);
    const decisions = await page.getByTestId("guide-decisions").locator("li").allTextContents();
    expect(decisions[0]).toMatch(/^collect · llm_planner → call_skill read_destination: model: the message names a destination \(Tokyo\)/);
    expect(decisions.some((line) => line.startsWith("collect · phase_complete → replan research"))).toBe(true);
    expect(decisions.at(-1)).toMatch(/^summarize · phase_complete → finish/);
    expect(guideRequests).toHaveLength(2);
    expect(JSON.parse(guideRequests[1] ?? "{}")).toMatchObject({ message: "from 2026-05-01 to 2026-05-08", state: { current_task_id: "collect", data: { read_destination: { destination: "Tokyo" } } } });
    expect(await page.getByTestId("guide-state").textContent()).toContain('"summary": "Trip to Tokyo');
    expect(errors).toEqual([]);
    await page.getByTestId("guide").screenshot({ path: join(screenshots, "guided.png") });
    await page.close();
  });

  for (const mode of ["worker", "browser"] as const) {
    it(`stops a run on request (${mode}): unfinished steps aborted, the reply says Stopped, the status followed the run`, async () => {
      const { page, errors } = await openDemo();
      if (mode === "browser") {
        await page.getByTestId("mode-browser").check();
        await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
      }
      await page.getByTestId("query").fill("Do a deep archive lookup of the heights of Mount Everest and Mount Fuji and their difference");
      await page.getByTestId("run").click();
      await page.locator('[data-step-id][data-state="running"]').first().waitFor({ timeout: 20_000 });
      await page.getByTestId("status").filter({ hasText: /^Running [12] steps?/u }).waitFor({ timeout: 20_000 });
      await page.screenshot({ path: join(screenshots, `running-${mode}.png`), fullPage: true });
      await page.getByTestId("stop").click();
      await page.getByTestId("status").filter({ hasText: "Stopped." }).waitFor();
      // Give a late event the chance to (wrongly) change the page.
      await page.waitForTimeout(500);
      const { states } = await snapshot(page);
      expect(states.filter((state) => /:(running|waiting|planned)$/u.test(state))).toEqual([]);
      expect(states.some((state) => state.endsWith(":aborted"))).toBe(true);
      expect(await page.getByTestId("reply").textContent()).toBe("Stopped.");
      expect(await page.getByTestId("reply").getAttribute("data-state")).toBe("stopped");
      expect(await page.getByTestId("status").textContent()).toBe("Stopped.");
      expect(await page.getByTestId("run").isEnabled()).toBe(true);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, `stopped-${mode}.png`), fullPage: true });
      await page.close();
    });
  }

  it("says Done in t when a run completes", async () => {
    const { page, errors } = await openDemo();
    await runAndWatch(page, "How many seconds are in 3.5 days?", async () => {
      await page.getByTestId("run").click();
    });
    expect(await page.getByTestId("status").textContent()).toMatch(/^Done in \d+(?: ms|\.\d s): 1 step ran\.$/u);
    expect(await page.getByTestId("reply").textContent()).toBe("3.5 d = 302,400 s.");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("names the URL and what to check when the Worker cannot be reached", async () => {
    const { page, errors } = await openDemo();
    await page.route("**/v1/run", (route) => route.abort("connectionrefused"));
    await page.getByTestId("query").fill("What is 2 to the power of 10?");
    await page.getByTestId("run").click();
    const status = page.getByTestId("status");
    await status.filter({ hasText: "Could not reach the Worker" }).waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toMatch(new RegExp(`^Could not reach the Worker at ${server.url.replace(/[.]/gu, "\\.")}/v1/run \\(.+\\)\\. Check that it is running`, "u"));
    expect(await page.getByTestId("reply").getAttribute("data-state")).toBe("failed");
    expect(await page.getByTestId("reply").textContent()).toMatch(/^No reply: Could not reach the Worker at /u);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "unreachable-worker.png"), fullPage: true });
    await page.close();
  });

  it("writes the reply as reply-delta events arrive", async () => {
    const { page, errors } = await openDemo();
    const usage = { steps: 1, toolCalls: 0, modelCalls: 1, replans: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 };
    const events = [
      { type: "model", name: "a streaming stand-in", provider: "test" },
      { type: "reply-delta", runId: "r", t: 10, delta: "3.5 d " },
      { type: "reply-delta", runId: "r", t: 20, delta: "= 302,400 s." },
      { type: "run-end", runId: "r", t: 30, reason: "completed", durationMs: 30, usage },
    ];
    const body = events.map((event, id) => `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
    await page.route("**/v1/run", (route) => route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body }));
    await page.getByTestId("query").fill("How many seconds are in 3.5 days?");
    await page.getByTestId("run").click();
    await page.getByTestId("status").filter({ hasText: /^Done in/u }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("reply").textContent()).toBe("3.5 d = 302,400 s.");
    expect(await page.getByTestId("reply").getAttribute("data-state")).toBe("done");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("fits node text in its box and routes arrows around nodes", async () => {
    const { page, errors } = await openDemo();
    await page.getByTestId("mode-browser").check();
    await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
    await runAndWatch(page, "What time is it in Tokyo and New York?", async () => {
      await page.getByTestId("run").click();
    });
    const problems = await page.evaluate(() => {
      const found: string[] = [];
      const nodes = [...document.querySelectorAll<SVGGElement>("#dag [data-step-id]")];
      const boxes = nodes.map((node) => {
        const rect = node.querySelector("rect");
        const box = rect?.getBBox() ?? { x: 0, y: 0, width: 0, height: 0 };
        const matrix = node.transform.baseVal.consolidate()?.matrix;
        return { id: node.dataset["stepId"] ?? "", x: box.x + (matrix?.e ?? 0), y: box.y + (matrix?.f ?? 0), width: box.width, height: box.height };
      });
      for (const node of nodes) {
        for (const text of node.querySelectorAll<SVGTextElement>("text")) {
          if (text.getComputedTextLength() > 168 - 20 + 0.5) found.push(`${node.dataset["stepId"]}: "${text.textContent}" is ${text.getComputedTextLength()} px wide`);
        }
      }
      for (const path of document.querySelectorAll<SVGPathElement>("#dag path.edge")) {
        const length = path.getTotalLength();
        for (let at = 0; at <= length; at += 2) {
          const point = path.getPointAtLength(at);
          for (const box of boxes) {
            if (point.x > box.x + 1 && point.x < box.x + box.width - 1 && point.y > box.y + 1 && point.y < box.y + box.height - 1) {
              found.push(`${path.dataset["from"]}→${path.dataset["to"]} passes through ${box.id} at (${Math.round(point.x)}, ${Math.round(point.y)})`);
            }
          }
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
    // The reply quotes the first lookup's source: its arrow skips the clock layer.
    expect(await page.locator('#dag path.edge.long[data-from="s1"][data-to="s5"]').count()).toBe(1);
    // A long argument is cut with an ellipsis; the whole text stays in the node's title.
    const detail = await page.locator('#dag [data-step-id="s3"] .node-detail').textContent();
    expect(detail).toMatch(/…$/u);
    expect(await page.locator('#dag [data-step-id="s3"] title').textContent()).toContain('{"timeZone":"{{s1.value}}"}');
    expect(errors).toEqual([]);
    await page.locator("#plan").screenshot({ path: join(screenshots, "graph-fit.png") });
    await page.close();
  });
});
