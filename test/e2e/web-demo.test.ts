import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemo } from "../../scripts/lib/build-demo.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { launchChromium } from "../fixtures/browser.ts";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const screenshots = join(root, "test-results", "e2e");

let server: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  await buildDemo(root);
  server = await startWranglerDev(root);
  browser = await launchChromium();
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

/** What the page shows at this moment, read through the shadow roots of `<plankit-run>`. */
function snapshot(page: Page): Promise<{ steps: number; ended: boolean; reply: string; states: string[] }> {
  return page.evaluate(() => {
    const run = document.querySelector("plankit-run")?.shadowRoot;
    const nodes = [...(run?.querySelector("plankit-plan-graph")?.shadowRoot?.querySelectorAll("g.node") ?? [])];
    return {
      steps: nodes.length,
      ended: document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
      reply: run?.querySelector("plankit-reply")?.shadowRoot?.querySelector("[part=reply]")?.textContent ?? "",
      states: nodes.map((node) => {
        const approval = node.getAttribute("data-approval");
        return `${node.getAttribute("data-step")}:${node.getAttribute("data-status")}${approval === null ? "" : `/${approval}`}`;
      }),
    };
  });
}

/** The run's status line, in `<plankit-run>`. */
async function runStatus(page: Page): Promise<string> {
  return (await page.locator("plankit-run [part=run-status]").textContent()) ?? "";
}

/** A step of the step list: its status words, arguments and note. */
async function listedStep(page: Page, stepId: string): Promise<{ status: string; arguments: string; note: string }> {
  const item = page.locator(`plankit-steps li[data-step="${stepId}"]`);
  const text = async (selector: string) =>
    (await item.locator(selector).count()) === 0 ? "" : ((await item.locator(selector).textContent()) ?? "");
  return { status: await text(".status"), arguments: await text(".arguments"), note: await text(".note") };
}

/** The SVG title of a step's node: its status, note and whole arguments. */
function nodeTitle(page: Page, stepId: string): Promise<string> {
  return page
    .locator(`plankit-plan-graph g.node[data-step="${stepId}"] title`)
    .evaluate((title) => title.textContent ?? "");
}

/** Runs a request and checks that steps appear, and the graph grows, before the run ends. */
async function runAndWatch(
  page: Page,
  query: string,
  start: () => Promise<void>,
): Promise<{ first: Awaited<ReturnType<typeof snapshot>>; last: Awaited<ReturnType<typeof snapshot>> }> {
  await page.getByTestId("query").fill(query);
  await start();
  await page.locator("plankit-plan-graph g.node").first().waitFor({ timeout: 20_000 });
  const first = await snapshot(page);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
    undefined,
    { timeout: 45_000 },
  );
  const last = await snapshot(page);
  await page.waitForTimeout(200);
  return { first, last };
}

describe("the web demo in Chromium against wrangler dev", () => {
  it("is made of plankit/ui's elements, and runs a request on the Worker: steps appear while the plan streams, then the reply", async () => {
    const { page, errors, runRequests } = await openDemo();
    expect(await page.getByTestId("model").textContent()).toContain("plankit-demo (offline, scripted)");
    const { first, last } = await runAndWatch(
      page,
      "compare the populations of Tokyo and Paris and compute their ratio",
      async () => {
        await page.getByTestId("run").click();
      },
    );
    // The run view is <plankit-run> and its parts; the page draws no graph, list or card of its own.
    expect(
      await page.evaluate(() => ({
        svg: document.querySelectorAll("svg").length,
        inner: [...(document.querySelector("plankit-run")?.shadowRoot?.querySelectorAll("*") ?? [])]
          .map((element) => element.tagName.toLowerCase())
          .filter((tag) => tag.startsWith("plankit-")),
      })),
    ).toEqual({ svg: 0, inner: ["plankit-plan-graph", "plankit-approval", "plankit-steps", "plankit-reply"] });
    expect(first.ended).toBe(false);
    expect(first.reply).toBe("");
    expect(first.steps).toBeLessThan(last.steps);
    expect(last.steps).toBe(4);
    expect(last.states).toEqual(["s1:succeeded", "s2:succeeded", "s3:succeeded", "s4:succeeded"]);
    expect(last.reply).toContain("So Tokyo's population is 6.58 times that of Paris.");
    expect(await page.locator("plankit-reply [part=reply]").getAttribute("aria-live")).toBe("polite");
    expect(await page.locator('plankit-plan-graph .edge[data-from="s1"][data-to="s3"]').count()).toBe(1);
    expect(await listedStep(page, "s1")).toEqual({
      status: "done",
      arguments: '{"query":"population of Tokyo"}',
      note: "",
    });
    expect(await runStatus(page)).toMatch(/^Completed in \d+(?: ms|\.\d s) · 3 steps: 3 done$/u);
    expect(await page.getByTestId("answer-how").textContent()).toBe(
      "Answered from 3 tool results: kb_lookup ×2, calculator.",
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
    expect(last.states).toEqual(["s1:succeeded", "s2:succeeded", "s3:succeeded"]);
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
    const box = await page.locator("plankit-plan-graph svg").boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(375);
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.id ?? "")).not.toBe("query");
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "phone-width.png"), fullPage: true });
    await page.close();
  });

  it("shows a failed step and the re-plan, and says what happened rather than how many steps ran", async () => {
    const { page, errors } = await openDemo();
    const { last } = await runAndWatch(page, "What is the population of Atlantis?", async () => {
      await page.getByTestId("run").click();
    });
    expect(last.states.sort()).toEqual(["s1:failed", "s2:skipped", "s3:succeeded"]);
    expect(last.reply).toBe('The knowledge base has no fact about "population of Atlantis".');
    expect(await page.locator('plankit-plan-graph g.node[data-source="replan"]').count()).toBe(1);
    expect((await listedStep(page, "s1")).note).toMatch(/^No fact about "population of Atlantis"/u);
    expect(await runStatus(page)).toMatch(/^Completed in \d+(?: ms|\.\d s) · 1 step: 1 failed; 1 re-plan$/u);
    expect(await page.getByTestId("answer-how").textContent()).toBe("No tool result went into this answer (1 failed).");
    expect(await page.getByTestId("timeline").textContent()).toContain("replan 1");
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "replan.png"), fullPage: true });
    await page.close();
  });

  it("says in one short line how it answered when the demo model declines, and folds the long reply", async () => {
    const { page, errors } = await openDemo();
    await runAndWatch(page, "Write me a poem", async () => {
      await page.getByTestId("run").click();
    });
    expect(await page.getByTestId("answer-how").textContent()).toBe(
      "No tool fits this request, so none ran: the model answered in words.",
    );
    expect(await runStatus(page)).toMatch(/^Completed in \d+(?: ms|\.\d s) · answered without tools$/u);
    const reply = page.locator("plankit-reply [part=reply]");
    const lineHeight = await reply.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    const folded = (await reply.boundingBox())?.height ?? Infinity;
    expect(folded).toBeLessThanOrEqual(2 * lineHeight + 1);
    await page.getByTestId("reply-toggle").click();
    expect(await page.getByTestId("reply-toggle").getAttribute("aria-expanded")).toBe("true");
    expect((await reply.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(folded);
    // The decline itself is short: two sentences, what it cannot do and what it can.
    expect((await reply.textContent())?.split(/(?<=\.) /u).length).toBeLessThanOrEqual(2);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, "declined.png"), fullPage: true });
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
    it(`stops a run on request (${mode}): nothing is left running, the status says the run was aborted`, async () => {
      const { page, errors, runRequests } = await openDemo();
      if (mode === "browser") {
        await page.getByTestId("mode-browser").check();
        await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
      }
      await page
        .getByTestId("query")
        .fill("Do a deep archive lookup of the heights of Mount Everest and Mount Fuji and their difference");
      await page.getByTestId("run").click();
      await page.locator('plankit-plan-graph g.node[data-status="running"]').first().waitFor({ timeout: 20_000 });
      expect(await runStatus(page)).toMatch(/^Running · \d of \d+ steps done$/u);
      await page.screenshot({ path: join(screenshots, `running-${mode}.png`), fullPage: true });
      await page.locator("plankit-run [part=stop-button]").click();
      await page
        .locator("plankit-run [part=run-status]")
        .filter({ hasText: /^Ended: aborted/u })
        .waitFor();
      // Give a late event the chance to (wrongly) change the page.
      await page.waitForTimeout(500);
      const { states } = await snapshot(page);
      expect(states.filter((state) => /:(running|retrying)$/u.test(state))).toEqual([]);
      expect(await page.locator("plankit-run [part=stop-button]").isHidden()).toBe(true);
      expect(await page.getByTestId("run").isEnabled()).toBe(true);
      if (mode === "worker") expect(runRequests).toContain("POST /v1/runs/:id/cancel");
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, `stopped-${mode}.png`), fullPage: true });
      await page.close();
    });
  }

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
    expect(await page.getByTestId("run").isEnabled()).toBe(true);
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
    await page.getByTestId("query").fill("How many seconds are in 3.5 days?");
    await page.getByTestId("run").click();
    await page
      .locator("plankit-run [part=run-status]")
      .filter({ hasText: /^Completed in 30 ms/u })
      .waitFor({ timeout: 20_000 });
    expect(await page.locator("plankit-reply [part=reply]").textContent()).toBe("3.5 d = 302,400 s.");
    expect(await page.getByTestId("model").textContent()).toBe("Model: a streaming stand-in.");
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
      const graph = document.querySelector("plankit-run")?.shadowRoot?.querySelector("plankit-plan-graph")?.shadowRoot;
      const nodes = [...(graph?.querySelectorAll<SVGGElement>("g.node") ?? [])];
      const boxes = nodes.map((node) => {
        const box = (node.querySelector("rect") as SVGRectElement).getBBox();
        return { id: node.getAttribute("data-step") ?? "", x: box.x, y: box.y, width: box.width, height: box.height };
      });
      for (const [index, node] of nodes.entries()) {
        for (const text of node.querySelectorAll<SVGTextElement>("text")) {
          const box = boxes[index]!;
          const right = text.getBBox().x + text.getComputedTextLength();
          if (right > box.x + box.width + 0.5)
            found.push(`${box.id}: "${text.textContent}" ends at ${right}, past the box (${box.x + box.width})`);
        }
      }
      for (const edge of graph?.querySelectorAll<SVGPolylineElement>(".edge") ?? []) {
        const points = [...edge.points];
        for (let index = 1; index < points.length; index++) {
          const from = points[index - 1]!;
          const to = points[index]!;
          for (let step = 0; step <= 20; step++) {
            const x = from.x + ((to.x - from.x) * step) / 20;
            const y = from.y + ((to.y - from.y) * step) / 20;
            for (const box of boxes) {
              if (x > box.x + 1 && x < box.x + box.width - 1 && y > box.y + 1 && y < box.y + box.height - 1)
                found.push(
                  `${edge.dataset["from"]}→${edge.dataset["to"]} passes through ${box.id} at (${Math.round(x)}, ${Math.round(y)})`,
                );
            }
          }
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
    // The reply quotes the first lookup's source: its arrow skips the clock layer.
    expect(await page.locator('plankit-plan-graph .edge[data-from="s1"][data-to="s5"]').count()).toBe(1);
    // A long argument is cut with an ellipsis; the whole text stays in the node's title.
    const detail = await page.locator('plankit-plan-graph g.node[data-step="s3"] text.detail').textContent();
    expect(detail).toMatch(/…$/u);
    expect(await nodeTitle(page, "s3")).toContain(detail?.slice(0, -1));
    expect(errors).toEqual([]);
    await page.locator("plankit-plan-graph").screenshot({ path: join(screenshots, "graph-fit.png") });
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

  /** Runs the note request and waits for the approval card's Approve button. */
  async function untilApprovalCard(
    page: Page,
    query = "Save a note titled groceries saying milk and eggs",
  ): Promise<void> {
    await page.getByTestId("query").fill(query);
    await page.getByTestId("run").click();
    await page.locator('plankit-approval [part=card][data-pending="true"] [part=approve-button]').waitFor({
      timeout: 30_000,
    });
  }

  /** Waits until the run has ended and the page has drawn it. */
  async function untilRunEnd(page: Page): Promise<Awaited<ReturnType<typeof snapshot>>> {
    await page.waitForFunction(
      () => document.querySelector('[data-testid="timeline"] li[data-type="run-end"]') !== null,
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(100);
    return snapshot(page);
  }

  /** The timeline's lines of one type. */
  function timelineLines(page: Page, type: string): Promise<string[]> {
    return page.getByTestId("timeline").locator(`li[data-type="${type}"]`).allTextContents();
  }

  /** Where the focus is, across shadow roots: the innermost active element's tag and part. */
  function focused(page: Page): Promise<string> {
    return page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active === null ? "" : `${active.tagName.toLowerCase()}[part=${active.getAttribute("part")}]`;
    });
  }

  /** The text of the card's item for a decided step. */
  function decidedItem(page: Page, stepId: string): Promise<string> {
    return page
      .locator(`plankit-approval li.decided[data-step="${stepId}"]`)
      .evaluate((item) => item.textContent ?? "");
  }

  /** Whether the whole box of each element lies inside the viewport, as the page shows it (nobody scrolls). */
  async function inView(page: Page, selectors: string[]): Promise<Record<string, boolean>> {
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    const found: Record<string, boolean> = {};
    for (const selector of selectors) {
      const box = await page.locator(selector).boundingBox();
      found[selector] =
        box !== null &&
        box.y >= 0 &&
        box.x >= 0 &&
        box.y + box.height <= viewport.height + 0.5 &&
        box.x + box.width <= viewport.width + 0.5;
    }
    return found;
  }

  describe("approval of side effects", () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 812 },
    ]) {
      it(`shows the whole approval card without scrolling at ${viewport.width}×${viewport.height}`, async () => {
        const { page, errors } = await openDemo(viewport);
        await untilApprovalCard(page);
        await page.waitForTimeout(300);
        const card = "plankit-approval [part=card]";
        expect(
          await inView(page, [card, "plankit-approval [part=approve-button]", "plankit-approval [part=deny-button]"]),
        ).toEqual({
          [card]: true,
          "plankit-approval [part=approve-button]": true,
          "plankit-approval [part=deny-button]": true,
        });
        expect(await focused(page)).toBe("section[part=card]");
        expect(errors).toEqual([]);
        await page.screenshot({ path: join(screenshots, `approval-in-view-${viewport.width}.png`) });
        await page.close();
      });
    }

    it("shows one card for the note, marks the step in the graph, and saves the note once approved by keyboard", async () => {
      const { page, errors, runRequests } = await openDemo();
      const before = await page.screenshot({ fullPage: true });
      await untilApprovalCard(page);
      // The graph and the list mark the waiting step.
      expect((await snapshot(page)).states).toEqual(["s1:planned/requested", "s2:planned"]);
      expect(await listedStep(page, "s1")).toEqual({
        status: "planned",
        arguments: '{"title":"groceries","text":"milk and eggs"}',
        note: "waits for approval",
      });
      expect(await runStatus(page)).toBe("Waiting for your approval of 1 step · 0 of 2 steps done");
      // One card, listing the step, what it does and its arguments.
      expect(await page.locator("plankit-approval [part=approval-step]").count()).toBe(1);
      const card = page.locator("plankit-approval [part=card]");
      const text = (await card.textContent()) ?? "";
      expect(text).toContain("Approval needed (1 step)");
      expect(text).toMatch(/save_note \(s1\): Save a note with a title and a text \(this changes state\)/u);
      expect(JSON.parse(await page.locator("plankit-approval [part=arguments]").inputValue())).toEqual({
        title: "groceries",
        text: "milk and eggs",
      });
      expect(await focused(page)).toBe("section[part=card]");
      // The screenshot shows the card where the page had none, and the step's node in the card's colour.
      const after = await page.screenshot({ fullPage: true });
      const scrollY = await page.evaluate(() => window.scrollY);
      const onPage = (found: { x: number; y: number; width: number; height: number } | null) => {
        if (found === null) throw new Error("no box");
        return { ...found, y: found.y + scrollY };
      };
      const box = onPage(await card.boundingBox());
      const cardBorder = await card.evaluate((element) => getComputedStyle(element).borderTopColor);
      const perimeter = 2 * (box.width + box.height);
      expect(await countPixels(page, before, box, cardBorder)).toBeLessThan(perimeter / 4);
      expect(await countPixels(page, after, box, cardBorder)).toBeGreaterThan(perimeter * 1.5);
      const node = onPage(await page.locator('plankit-plan-graph g.node[data-step="s1"] rect').boundingBox());
      const nodeStroke = await page
        .locator('plankit-plan-graph g.node[data-step="s1"] rect')
        .evaluate((element) => getComputedStyle(element).stroke);
      expect(nodeStroke).toBe(cardBorder);
      expect(await countPixels(page, after, node, nodeStroke, 6)).toBeGreaterThan(node.width + node.height);
      writeFileSync(join(screenshots, "approval-card.png"), after);
      // Keyboard: card → arguments → reason → Approve.
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("textarea[part=arguments]");
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("input[part=reason]");
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("button[part=approve-button]");
      await page.keyboard.press("Enter");
      const last = await untilRunEnd(page);
      expect(last.states).toEqual(["s1:succeeded/approved", "s2:succeeded"]);
      expect(last.reply).toBe('I saved the note "groceries" (13 characters).');
      expect(await decidedItem(page, "s1")).toBe('save_note (s1) approved{"title":"groceries","text":"milk and eggs"}');
      expect(await timelineLines(page, "approval-decision")).toEqual([
        expect.stringContaining("approval-decision s1: approved (caller)"),
      ]);
      expect(runRequests).toEqual(["POST /v1/runs", "GET /v1/runs/:id/events", "POST /v1/runs/:id/approvals"]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, "approval-approved.png"), fullPage: true });
      await page.close();
    });

    it("shows a denial as the person's choice: the step is denied, never runs, and the run is not called failed", async () => {
      const { page, errors } = await openDemo();
      await untilApprovalCard(page);
      await page.locator("plankit-approval [part=reason]").fill("not today");
      await page.locator("plankit-approval [part=deny-button]").click();
      const last = await untilRunEnd(page);
      expect(last.states[0]).toBe("s1:skipped/denied");
      expect(await listedStep(page, "s1")).toEqual({
        status: "denied",
        arguments: '{"title":"groceries","text":"milk and eggs"}',
        note: "You denied it: not today",
      });
      expect(await nodeTitle(page, "s1")).toContain("(denied): You denied it: not today");
      expect(await decidedItem(page, "s1")).toBe("save_note (s1) denied: not today");
      const status = page.locator("plankit-run [part=run-status]");
      expect(await status.textContent()).toMatch(/^Completed in \d+(?: ms|\.\d s) · 1 step: 1 denied by you$/u);
      expect(await status.getAttribute("data-tone")).toBe("success");
      // Nothing in the run view, shadow trees included, calls it a failure.
      const shown = await page.evaluate(() => {
        const text = (root: Element | ShadowRoot): string =>
          [...root.children]
            .map(
              (child) =>
                `${child.shadowRoot === null ? "" : text(child.shadowRoot)} ${child.children.length === 0 ? (child.textContent ?? "") : text(child)}`,
            )
            .join(" ");
        return text(document.querySelector("plankit-run")?.shadowRoot as ShadowRoot);
      });
      expect(shown).toContain("You denied it: not today");
      expect(shown.toLowerCase()).not.toContain("fail");
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

    it("edits the arguments: invalid JSON and a value the tool refuses are shown; the card and the list show the edited values", async () => {
      const { page, errors, runRequests } = await openDemo();
      await untilApprovalCard(page);
      const box = page.locator("plankit-approval [part=arguments]");
      const approve = page.locator("plankit-approval [part=approve-button]");
      const message = page.locator("plankit-approval [part=error]");
      await box.fill('{"title": "shopping", "text": }');
      await approve.click();
      expect(await message.textContent()).toMatch(/^The arguments of s1 are not valid JSON: .+/u);
      expect(await box.getAttribute("aria-invalid")).toBe("true");
      expect(runRequests.filter((line) => line.endsWith("/approvals"))).toEqual([]);
      await box.fill('{"title": 42, "text": "milk and eggs"}');
      await approve.click();
      await message.filter({ hasText: "/title" }).waitFor({ timeout: 10_000 });
      expect(await message.textContent()).toMatch(
        /answered 400 invalid-argument: Edited arguments of step "s1" \(tool "save_note"\): .*\(\/title\)/u,
      );
      expect((await snapshot(page)).states[0]).toBe("s1:planned/requested");
      await page.screenshot({ path: join(screenshots, "approval-edit-refused.png") });
      await box.fill('{"title": "shopping", "text": "milk and eggs"}');
      await approve.click();
      const last = await untilRunEnd(page);
      expect(last.reply).toBe('I saved the note "shopping" (13 characters).');
      expect(await decidedItem(page, "s1")).toBe('save_note (s1) approved{"title":"shopping","text":"milk and eggs"}');
      expect((await listedStep(page, "s1")).arguments).toBe('{"title":"shopping","text":"milk and eggs"}');
      expect(await nodeTitle(page, "s1")).toContain('{"title":"shopping","text":"milk and eggs"}');
      expect(await timelineLines(page, "approval-decision")).toEqual([
        expect.stringContaining(
          'approval-decision s1: approved with edited arguments {"title":"shopping","text":"milk and eggs"} (caller)',
        ),
      ]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(screenshots, "approval-edited.png"), fullPage: true });
      await page.close();
    });

    it("stops a run that waits for approval: the Worker cancels it and the card says the step did not run", async () => {
      const { page, errors, runRequests } = await openDemo();
      await untilApprovalCard(page);
      await page.locator("plankit-run [part=stop-button]").click();
      await page
        .locator("plankit-run [part=run-status]")
        .filter({ hasText: /^Ended: aborted/u })
        .waitFor();
      expect(await decidedItem(page, "s1")).toBe("save_note (s1) not decided: the run ended first, so it did not run");
      expect(await page.locator("plankit-approval [part=approve-button]").count()).toBe(0);
      await expect.poll(() => runRequests.includes("POST /v1/runs/:id/cancel")).toBe(true);
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
      await page.locator('plankit-approval li.decided[data-step="s1"]').waitFor({ timeout: 20_000 });
      expect(await decidedItem(page, "s1")).toBe(
        "save_note (s1) denied: No decision within 60000 ms (no answer in time)",
      );
      expect(await page.locator("plankit-approval [part=approve-button]").count()).toBe(0);
      expect(await listedStep(page, "s1")).toMatchObject({ status: "skipped", note: "No decision within 60000 ms" });
      expect((await snapshot(page)).states).toEqual(["s1:skipped/denied"]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("asks in the browser too, with the same card", async () => {
      const { page, errors, runRequests } = await openDemo();
      await page.getByTestId("mode-browser").check();
      await page.getByTestId("model").filter({ hasText: "running in this browser" }).waitFor();
      await untilApprovalCard(page, "Save a note titled books with the text Dune");
      expect((await snapshot(page)).states).toEqual(["s1:planned/requested", "s2:planned"]);
      await page.locator("plankit-approval [part=approve-button]").click();
      const last = await untilRunEnd(page);
      expect(last.reply).toBe('I saved the note "books" (4 characters).');
      expect(runRequests).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
