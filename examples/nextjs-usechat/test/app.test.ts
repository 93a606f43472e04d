/**
 * Builds the app with `next build`, starts it with `next start`, and checks
 * the route handler's UI message stream and the page's `useChat` and
 * `<plankit-run>` in headless Chromium (from @sparticuz/chromium, driven by
 * playwright-core).
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import chromium from "@sparticuz/chromium";
import { type Browser, type Page, chromium as playwright } from "playwright-core";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const next = ["node_modules/next/dist/bin/next"];
let server: ChildProcess | undefined;
let origin = "";
let browser: Browser | undefined;

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

before(async () => {
  execFileSync(process.execPath, [...next, "build"], { env, stdio: "inherit", timeout: 300_000 });
  const port = await freePort();
  server = spawn(process.execPath, [...next, "start", "-H", "127.0.0.1", "-p", String(port)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stderr?.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next start did not start within 60 s:\n${output}`)), 60_000);
    server?.stdout?.on("data", (chunk) => {
      output += chunk;
      if (/Ready in|✓ Ready/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    server?.on("exit", (code) => reject(new Error(`next start exited with ${code}:\n${output}`)));
  });
  origin = `http://127.0.0.1:${port}`;
});

after(async () => {
  await browser?.close();
  if (server?.exitCode === null) server.kill();
});

test("the route handler answers useChat's request with the run as a UI message stream", async () => {
  const response = await fetch(`${origin}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "chat-1",
      trigger: "submit-message",
      messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "How much taller is Everest than Fuji?" }] }],
    }),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
  const chunks = (await response.text())
    .split("\n\n")
    .map((block) => block.replace(/^data: /, ""))
    .filter((data) => data.startsWith("{"))
    .map((data) => JSON.parse(data) as { type: string; [key: string]: unknown });
  const outputs = chunks
    .filter((chunk) => chunk.type === "tool-output-available")
    .map((chunk) => [chunk["toolCallId"], chunk["output"]]);
  assert.deepEqual(outputs, [
    ["s1", { mountain: "Everest", metres: 8849 }],
    ["s2", { mountain: "Fuji", metres: 3776 }],
    ["s3", { difference: 5073 }],
  ]);
  const text = chunks
    .filter((chunk) => chunk.type === "text-delta")
    .map((chunk) => chunk["delta"])
    .join("");
  assert.equal(text, "Everest is 5073 m taller than Fuji.");
  // sendEvents: each runtime event also as a transient data-plankit chunk, for the page's <plankit-run>.
  const events = chunks.filter((chunk) => chunk.type === "data-plankit");
  assert.ok(events.every((chunk) => chunk["transient"] === true));
  const types = events.map((chunk) => (chunk["data"] as { type: string }).type);
  assert.equal(types[0], "plan-start");
  assert.equal(types.at(-1), "run-end");
  assert.equal(types.filter((type) => type === "step-end").length, 4);
  assert.equal(chunks.filter((chunk) => chunk.type !== "data-plankit").at(-1)?.type, "finish");
});

/** A new page in headless Chromium (launched on first use), with the page's uncaught errors collected. */
async function openPage(): Promise<{ page: Page; errors: string[] }> {
  browser ??= await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    headless: true,
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(origin);
  return { page, errors };
}

test("the page sends the question with useChat and shows the steps and the reply", async () => {
  const { page, errors } = await openPage();
  await page.getByRole("button", { name: "Ask" }).click();
  const assistant = page.locator('li[data-role="assistant"] .parts');
  await assistant.getByText("Everest is 5073 m taller than Fuji.").waitFor({ timeout: 30_000 });
  await page.getByRole("status").getByText("ready").waitFor({ timeout: 10_000 });
  const tools = await assistant.locator("[data-tool-state]").allInnerTexts();
  assert.deepEqual(tools, [
    'Height of Everest: {"mountain":"Everest","metres":8849}',
    'Height of Fuji: {"mountain":"Fuji","metres":3776}',
    'The difference: {"difference":5073}',
  ]);
  assert.equal(await page.locator('li[data-role="user"]').textContent(), "How much taller is Everest than Fuji?");
  assert.deepEqual(errors, []);
});

test("beside each assistant turn, <plankit-run> draws that turn's run from the events onData received", async () => {
  const { page, errors } = await openPage();
  const questions = ["How much taller is Everest than Fuji?", "And in feet?"];
  for (const [turn, question] of questions.entries()) {
    await page.getByLabel("Question").fill(question);
    await page.getByRole("button", { name: "Ask" }).click();
    // Playwright's CSS locators pierce the shadow roots of <plankit-run> and the elements inside it.
    const run = page.locator('li[data-role="assistant"] .run plankit-run').nth(turn);
    await run
      .locator('[part="run-status"]')
      .getByText(/^Completed in \d+ ms · 3 steps: 3 done$/)
      .waitFor({ timeout: 30_000 });
    assert.equal(await run.locator('[part="query"]').textContent(), question);
    const graph = await run
      .locator("plankit-plan-graph g[data-step]")
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute("data-step"), node.getAttribute("data-status")]));
    assert.deepEqual(graph, [
      ["s1", "succeeded"],
      ["s2", "succeeded"],
      ["s3", "succeeded"],
      ["s4", "succeeded"],
    ]);
    const edges = await run
      .locator("plankit-plan-graph polyline.edge")
      .evaluateAll((lines) => lines.map((line) => `${line.getAttribute("data-from")}→${line.getAttribute("data-to")}`));
    assert.deepEqual(edges.sort(), ["s1→s3", "s2→s3", "s3→s4"]);
    const steps = await run
      .locator("plankit-steps li[data-step]")
      .evaluateAll((items) =>
        items.map((item) => [
          item.getAttribute("data-step"),
          item.getAttribute("data-status"),
          item.querySelector(".name")?.textContent,
          item.querySelector(".arguments")?.textContent,
        ]),
      );
    assert.deepEqual(steps, [
      ["s1", "succeeded", "mountain_height", '{"mountain":"Everest"}'],
      ["s2", "succeeded", "mountain_height", '{"mountain":"Fuji"}'],
      ["s3", "succeeded", "subtract", '{"a":8849,"b":3776}'],
      ["s4", "succeeded", "reply", "Everest is {{s3.difference}} m taller than Fuji."],
    ]);
    assert.equal(
      await run.locator('plankit-reply [part="reply"]').textContent(),
      "Everest is 5073 m taller than Fuji.",
    );
  }
  // One view per turn: the first still shows the first run.
  assert.equal(await page.locator("plankit-run").count(), 2);
  assert.equal(await page.locator("plankit-run").first().locator('[part="query"]').textContent(), questions[0]);
  assert.deepEqual(errors, []);
});
