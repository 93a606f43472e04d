import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import chromium from "@sparticuz/chromium";
import { type Browser, type Page, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemo } from "../../scripts/lib/build-demo.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const screenshots = join(root, "test-results", "e2e");
const launchArguments = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

let server: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  await buildDemo(root);
  server = await startWranglerDev(root);
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: launchArguments,
    headless: true,
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the demo page, collecting page errors and the API requests it makes. */
async function openDemo(
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; errors: string[]; runRequests: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const runRequests: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path === "/v1/run" || path.startsWith("/v1/runs"))
      runRequests.push(`${request.method()} ${path.replace(/\/v1\/runs\/[^/]+/u, "/v1/runs/:id")}`);
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
    states: [...document.querySelectorAll<SVGGElement>("[data-step-id]")].map(
      (node) => `${node.dataset["stepId"]}:${node.dataset["state"]}`,
    ),
  }));
}

/** Runs a request and checks that steps appear, and the graph grows, before the run ends. */
async function runAndWatch(
  page: Page,
  query: string,
  start: () => Promise<void>,
): Promise<{ first: Awaited<ReturnType<typeof snapshot>>; last: Awaited<ReturnType<typeof snapshot>> }> {
  await page.getByTestId("query").fill(query);
  await start();
  await page.locator("[data-step-id]").first().waitFor({ timeout: 20_000 });
  const first = await snapshot(page);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
    undefined,
    { timeout: 45_000 },
  );
  const last = await snapshot(page);
  // Let the last nodes finish fading in before any screenshot.
  await page.waitForTimeout(400);
  return { first, last };
}

describe("the web demo in Chromium against wrangler dev", () => {
  it("runs a request on the Worker: steps appear while the plan streams, then the reply", async () => {
    const { page, errors, runRequests } = await openDemo();
    expect(await page.getByTestId("model").textContent()).toContain("plankit-demo (offline, scripted)");
    const { first, last } = await runAndWatch(
      page,
      "compare the populations of Tokyo and Paris and compute their ratio",
      async () => {
        await page.getByTestId("run").click();
      },
    );
    expect(first.ended).toBe(false);
    expect(first.reply).toBe("");
    expect(first.steps).toBeLessThan(last.steps);
    expect(last.steps).toBe(4);
    expect(last.states).toEqual(["s1:done", "s2:done", "s3:done", "s4:done"]);
    expect(last.reply).toContain("So Tokyo's population is 6.58 times that of Paris.");
    expect(await page.getByTestId("reply").getAttribute("aria-live")).toBe("polite");
    expect(await page.locator('#dag path.edge[data-from="s1"][data-to="s3"]').count()).toBe(1);
    expect(await page.getByTestId("steps").locator("li").first().textContent()).toMatch(
      /s1 · kb_lookup\s*done\s*took \d+ ms/,
    );
    expect(runRequests).toEqual(["POST /v1/runs", "GET /v1/runs/:id/events"]);
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
    expect(last.reply).toMatch(
      /^In Tokyo it is \w+day, .+ \(Asia\/Tokyo, UTC\+09:00\)\. Source: IANA time zone database\.$/,
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
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
    expect(await assistant.first().textContent()).toBe(
      "Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08.",
    );
    expect(
      await page
        .getByTestId("guide-phases")
        .locator("li")
        .evaluateAll((items) => items.map((item) => `${item.textContent}:${(item as HTMLElement).dataset["state"]}`)),
    ).toEqual(["collect:current", "research:pending", "summarize:pending"]);
    await page.getByTestId("guide-message").fill("from 2026-05-01 to 2026-05-08");
    await page.getByTestId("guide-message").press("Enter");
    await page
      .getByTestId("guide-status")
      .filter({ hasText: "The conversation is complete." })
      .waitFor({ timeout: 30_000 });
    expect(await assistant.nth(1).textContent()).toContain(
      "Here is your trip: Trip to Tokyo from 2026-05-01 to 2026-05-08 (7 nights).",
    );
    expect(await page.locator('[data-testid="guide-phases"] li[data-state="done"]').count()).toBe(3);
    const decisions = await page.getByTestId("guide-decisions").locator("li").allTextContents();
    expect(decisions[0]).toMatch(
      /^collect · llm_planner → call_skill read_destination: model: the message names a destination \(Tokyo\)/,
    );
    expect(decisions.some((line) => line.startsWith("collect · phase_complete → replan research"))).toBe(true);
    expect(decisions.at(-1)).toMatch(/^summarize · phase_complete → finish/);
    expect(guideRequests).toHaveLength(2);
    expect(JSON.parse(guideRequests[1] ?? "{}")).toMatchObject({
      message: "from 2026-05-01 to 2026-05-08",
      state: { current_task_id: "collect", data: { read_destination: { destination: "Tokyo" } } },
    });
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
      await page
        .getByTestId("query")
        .fill("Do a deep archive lookup of the heights of Mount Everest and Mount Fuji and their difference");
      await page.getByTestId("run").click();
      await page.locator('[data-step-id][data-state="running"]').first().waitFor({ timeout: 20_000 });
      await page
        .getByTestId("status")
        .filter({ hasText: /^Running [12] steps?/u })
        .waitFor({ timeout: 20_000 });
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
    await page.route("**/v1/runs", (route) => route.abort("connectionrefused"));
    await page.getByTestId("query").fill("What is 2 to the power of 10?");
    await page.getByTestId("run").click();
    const status = page.getByTestId("status");
    await status.filter({ hasText: "Could not reach the Worker" }).waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toMatch(
      new RegExp(
        `^Could not reach the Worker at ${server.url.replace(/[.]/gu, "\\.")}/v1/runs \\(.+\\)\\. Check that it is running`,
        "u",
      ),
    );
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
    const body = events
      .map((event, id) => `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    await page.route("**/v1/runs", (route) =>
      route.fulfill({
        status: 202,
        contentType: "application/json",
        body: JSON.stringify({ id: "r", session: "r", durable: false }),
      }),
    );
    await page.route("**/v1/runs/r/events", (route) =>
      route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body }),
    );
    await page.getByTestId("query").fill("How many seconds are in 3.5 days?");
    await page.getByTestId("run").click();
    await page
      .getByTestId("status")
      .filter({ hasText: /^Done in/u })
      .waitFor({ timeout: 20_000 });
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
        return {
          id: node.dataset["stepId"] ?? "",
          x: box.x + (matrix?.e ?? 0),
          y: box.y + (matrix?.f ?? 0),
          width: box.width,
          height: box.height,
        };
      });
      for (const node of nodes) {
        for (const text of node.querySelectorAll<SVGTextElement>("text")) {
          if (text.getComputedTextLength() > 168 - 20 + 0.5)
            found.push(`${node.dataset["stepId"]}: "${text.textContent}" is ${text.getComputedTextLength()} px wide`);
        }
      }
      for (const path of document.querySelectorAll<SVGPathElement>("#dag path.edge")) {
        const length = path.getTotalLength();
        for (let at = 0; at <= length; at += 2) {
          const point = path.getPointAtLength(at);
          for (const box of boxes) {
            if (
              point.x > box.x + 1 &&
              point.x < box.x + box.width - 1 &&
              point.y > box.y + 1 &&
              point.y < box.y + box.height - 1
            ) {
              found.push(
                `${path.dataset["from"]}→${path.dataset["to"]} passes through ${box.id} at (${Math.round(point.x)}, ${Math.round(point.y)})`,
              );
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

  /** Counts the pixels of a PNG inside a box whose colour is within `tolerance` of `color` (decoded by the page's own PNG decoder). */
  async function countPixels(
    page: Page,
    png: Buffer,
    box: { x: number; y: number; width: number; height: number },
    color: string,
    tolerance = 24,
  ): Promise<number> {
    return page.evaluate(
      async ({ data, box, color, tolerance }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext("2d");
        if (context === null) throw new Error("no 2d context");
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(
          Math.round(box.x),
          Math.round(box.y),
          Math.max(1, Math.round(box.width)),
          Math.max(1, Math.round(box.height)),
        ).data;
        const [r, g, b] = (color.match(/\d+/gu) ?? []).map(Number) as [number, number, number];
        let count = 0;
        for (let index = 0; index < pixels.length; index += 4) {
          if (
            Math.abs((pixels[index] ?? 0) - r) <= tolerance &&
            Math.abs((pixels[index + 1] ?? 0) - g) <= tolerance &&
            Math.abs((pixels[index + 2] ?? 0) - b) <= tolerance
          )
            count++;
        }
        return count;
      },
      { data: png.toString("base64"), box, color, tolerance },
    );
  }

  /** Runs the note request on the Worker and waits for the approval card. */
  async function untilApprovalCard(
    page: Page,
    query = "Save a note titled groceries saying milk and eggs",
  ): Promise<void> {
    await page.getByTestId("query").fill(query);
    await page.getByTestId("run").click();
    await page.locator('[data-testid="approval-card"][data-phase="open"]').waitFor({ timeout: 30_000 });
  }

  /** Waits until the run has ended and the page has drawn it. */
  async function untilRunEnd(page: Page): Promise<Awaited<ReturnType<typeof snapshot>>> {
    await page.waitForFunction(
      () => document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
      undefined,
      { timeout: 30_000 },
    );
    return snapshot(page);
  }

  /** The timeline's lines of one type. */
  function timelineLines(page: Page, type: string): Promise<string[]> {
    return page.getByTestId("timeline").locator(`li[data-type="${type}"]`).allTextContents();
  }

  describe("approval of side effects", () => {
    it("shows one card for the note, marks the step in the graph, and saves the note once approved by keyboard", async () => {
      const { page, errors, runRequests } = await openDemo();
      const card = page.getByTestId("approval-card");
      const before = await page.screenshot({ fullPage: true });
      const stopBefore = await page.getByTestId("stop").boundingBox();
      const planBefore = await page.locator("#plan").boundingBox();
      await untilApprovalCard(page);
      // The card opens below the Stop button: what is above it and the plan beside it do not move.
      expect(await page.getByTestId("stop").boundingBox()).toEqual(stopBefore);
      expect((await page.locator("#plan").boundingBox())?.y).toBe(planBefore?.y);
      // The graph and the list mark the waiting step; the legend names the style.
      expect((await snapshot(page)).states).toEqual(["s1:approval", "s2:waiting"]);
      expect(await page.getByTestId("steps").locator('li[data-step="s1"] .badge').textContent()).toBe("needs approval");
      expect(await page.getByTestId("steps").locator('li[data-step="s1"] .note').textContent()).toBe(
        "waits for your approval",
      );
      expect(await page.locator('.legend [data-state="approval"]').textContent()).toBe("needs approval");
      expect(await page.getByTestId("status").textContent()).toBe("Waiting for your approval of 1 step…");
      // One card, listing the step, its arguments and why.
      expect(await page.locator("[data-approval-step]").count()).toBe(1);
      const text = (await card.textContent()) ?? "";
      expect(text).toContain("Approval needed: 1 step with side effects");
      expect(text).toContain("s1 · save_note");
      expect(text).toMatch(/titlegroceriestextmilk and eggs/u);
      expect(text).toContain(
        "Why: save_note changes state and may overwrite or delete data, so the application asks a person before it runs",
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("approval-heading");
      // The screenshot shows the card where the page had none, and the step's node in its approval colour.
      const after = await page.screenshot({ fullPage: true });
      // Boxes in page coordinates, as in a full-page screenshot.
      const scrollY = await page.evaluate(() => window.scrollY);
      const onPage = (found: { x: number; y: number; width: number; height: number } | null) => {
        if (found === null) throw new Error("no box");
        return { ...found, y: found.y + scrollY };
      };
      const box = onPage(await card.boundingBox());
      const cardBorder = await card.evaluate((element) => getComputedStyle(element).borderTopColor);
      const perimeter = 2 * (box.width + box.height);
      expect(await countPixels(page, before, box, cardBorder)).toBeLessThan(perimeter / 4);
      expect(await countPixels(page, after, box, cardBorder)).toBeGreaterThan(perimeter * 2);
      const node = onPage(await page.locator('#dag [data-step-id="s1"] rect').boundingBox());
      const nodeFill = await page
        .locator('#dag [data-step-id="s1"] rect')
        .evaluate((element) => getComputedStyle(element).fill);
      expect(await countPixels(page, after, node, nodeFill, 6)).toBeGreaterThan((node.width * node.height) / 2);
      writeFileSync(join(screenshots, "approval-card.png"), after);
      // Keyboard: heading → reason → Approve.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset["testid"])).toBe(
        "approval-reason",
      );
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset["testid"])).toBe(
        "approval-approve",
      );
      await page.keyboard.press("Enter");
      const last = await untilRunEnd(page);
      expect(last.states).toEqual(["s1:done", "s2:done"]);
      expect(last.reply).toBe('I saved the note "groceries" (13 characters).');
      expect(await card.getAttribute("data-phase")).toBe("decided");
      expect(await page.getByTestId("approval-summary").textContent()).toBe("Approved: s1.");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("approval-heading");
      expect(await timelineLines(page, "approval-decision")).toEqual([
        expect.stringContaining("approval-decision s1: approved (caller)"),
      ]);
      expect(runRequests).toEqual(["POST /v1/runs", "GET /v1/runs/:id/events", "POST /v1/runs/:id/approvals"]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, "approval-approved.png"), fullPage: true });
      await page.close();
    });

    it("denies with a reason: the step is skipped, denied, and never runs", async () => {
      const { page, errors } = await openDemo();
      await untilApprovalCard(page);
      await page.getByTestId("approval-reason").fill("not today");
      await page.getByTestId("approval-deny").click();
      const last = await untilRunEnd(page);
      expect(last.states[0]).toBe("s1:skipped");
      expect(await page.getByTestId("steps").locator('li[data-step="s1"] .note').textContent()).toBe(
        "denied: not today",
      );
      expect(await page.locator('#dag [data-step-id="s1"] title').textContent()).toContain("denied: not today");
      expect(await page.getByTestId("approval-card").getAttribute("data-phase")).toBe("decided");
      expect(await page.locator('[data-approval-step="s1"] .approval-outcome').textContent()).toBe("denied: not today");
      // save_note never started: no note was saved.
      expect((await timelineLines(page, "step-start")).filter((line) => line.includes("save_note"))).toEqual([]);
      expect(await timelineLines(page, "step-skipped")).toContainEqual(
        expect.stringContaining("step-skipped s1: not today"),
      );
      expect(last.reply).toBe("Not done: step s1 (save_note) did not run — denied (not today).");
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, "approval-denied.png"), fullPage: true });
      await page.close();
    });

    it("edits the arguments: invalid JSON and a value the tool refuses are shown, the edited title is saved", async () => {
      const { page, errors, runRequests } = await openDemo();
      await untilApprovalCard(page);
      await page.getByTestId("approval-edit").click();
      const box = page.getByTestId("approval-edit-s1");
      expect(JSON.parse(await box.inputValue())).toEqual({ title: "groceries", text: "milk and eggs" });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("approval-edit-s1");
      await box.fill('{"title": "shopping", "text": }');
      await page.getByTestId("approval-approve").click();
      const message = page.getByTestId("approval-message");
      expect(await message.textContent()).toMatch(/^The arguments of s1 are not valid JSON: .+/u);
      expect(await box.getAttribute("aria-invalid")).toBe("true");
      expect(runRequests.filter((line) => line.endsWith("/approvals"))).toEqual([]);
      await box.fill('{"title": 42, "text": "milk and eggs"}');
      await page.getByTestId("approval-approve").click();
      await message.filter({ hasText: "/title" }).waitFor({ timeout: 10_000 });
      expect(await message.textContent()).toMatch(
        /^The Worker refused the request \(400: Edited arguments of step "s1" \(tool "save_note"\): .*\(\/title\)/u,
      );
      expect(await page.getByTestId("approval-card").getAttribute("data-phase")).toBe("open");
      await page.screenshot({ path: join(screenshots, "approval-edit-refused.png") });
      await box.fill('{"title": "shopping", "text": "milk and eggs"}');
      await page.getByTestId("approval-approve").click();
      const last = await untilRunEnd(page);
      expect(last.reply).toBe('I saved the note "shopping" (13 characters).');
      expect(await page.locator('[data-approval-step="s1"] .approval-outcome').textContent()).toBe(
        "approved with edited arguments",
      );
      expect(await timelineLines(page, "approval-decision")).toEqual([
        expect.stringContaining("approval-decision s1: approved (caller)"),
      ]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("stops a run that waits for approval: the Worker cancels it and the card says so", async () => {
      const { page, errors, runRequests } = await openDemo();
      await untilApprovalCard(page);
      await page.getByTestId("stop").click();
      await page.getByTestId("status").filter({ hasText: "Stopped." }).waitFor();
      expect(await page.getByTestId("approval-card").getAttribute("data-phase")).toBe("ended");
      expect(await page.getByTestId("approval-summary").textContent()).toBe(
        "The run was stopped before a decision: the waiting steps did not run.",
      );
      expect((await snapshot(page)).states).toEqual(["s1:aborted", "s2:aborted"]);
      await expect.poll(() => runRequests.includes("POST /v1/runs/:id/cancel")).toBe(true);
      // Closing the card by keyboard.
      await page.getByTestId("approval-close").focus();
      await page.keyboard.press("Escape");
      expect(await page.getByTestId("approval-card").isHidden()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("says when the approval timed out", async () => {
      const { page, errors } = await openDemo();
      const usage = {
        steps: 2,
        toolCalls: 0,
        modelCalls: 1,
        replans: 0,
        cacheHits: 0,
        inputTokens: 0,
        outputTokens: 0,
      };
      const step = { id: "s1", type: "tool", name: "save_note", arguments: { title: "groceries", text: "milk" } };
      const events = [
        { type: "model", name: "a stand-in", provider: "test" },
        { type: "plan-start", runId: "r", t: 1, kind: "plan", query: "q", attempt: 1 },
        { type: "step-planned", runId: "r", t: 2, step, index: 0, source: "plan", safe: false },
        {
          type: "plan-end",
          runId: "r",
          t: 3,
          clean: true,
          finishReason: "stop",
          fallback: false,
          steps: 1,
          modelCalls: 1,
        },
        {
          type: "approval-request",
          runId: "r",
          t: 4,
          requestId: "a1",
          source: "plan",
          attempt: 1,
          timeoutMs: 60_000,
          steps: [
            {
              stepId: "s1",
              tool: "save_note",
              description: "Save a note",
              arguments: step.arguments,
              waiting: [],
              mode: "plan",
            },
          ],
        },
        {
          type: "approval-decision",
          runId: "r",
          t: 60_004,
          requestId: "a1",
          stepId: "s1",
          approved: false,
          reason: "No decision within 60000 ms",
          by: "timeout",
        },
        {
          type: "step-skipped",
          runId: "r",
          t: 60_005,
          stepId: "s1",
          code: "denied",
          reason: "No decision within 60000 ms",
        },
        { type: "reply", runId: "r", t: 60_006, text: "I saved nothing.", source: "template" },
        { type: "run-end", runId: "r", t: 60_007, reason: "completed", durationMs: 60_007, usage },
      ];
      const body = events
        .map((event, id) => `id: ${id + 1}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
        .join("");
      await page.route("**/v1/runs", (route) =>
        route.fulfill({
          status: 202,
          contentType: "application/json",
          body: JSON.stringify({ id: "r", session: "r", durable: false }),
        }),
      );
      await page.route("**/v1/runs/r/events", (route) =>
        route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body }),
      );
      await page.getByTestId("query").fill("Save a note titled groceries saying milk");
      await page.getByTestId("run").click();
      await page.locator('[data-testid="approval-card"][data-phase="timed-out"]').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("approval-summary").textContent()).toBe(
        "The approval timed out: no decision came within 60 s, so the waiting steps were denied and did not run.",
      );
      expect(await page.getByTestId("approval-approve").isHidden()).toBe(true);
      expect((await snapshot(page)).states).toEqual(["s1:skipped"]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("asks in the browser too, with the same card", async () => {
      const { page, errors, runRequests } = await openDemo();
      await page.getByTestId("mode-browser").check();
      await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
      await untilApprovalCard(page, "Save a note titled books with the text Dune");
      expect((await snapshot(page)).states).toEqual(["s1:approval", "s2:waiting"]);
      await page.getByTestId("approval-approve").click();
      const last = await untilRunEnd(page);
      expect(last.reply).toBe('I saved the note "books" (4 characters).');
      expect(runRequests).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
