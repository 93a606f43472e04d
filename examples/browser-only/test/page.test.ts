/**
 * Serves the built page with `vite preview` and runs a request in headless
 * Chromium (from @sparticuz/chromium, driven by playwright-core): the plan is
 * made and run in the page, and `<plankit-run>` shows the steps and the reply.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, test } from "node:test";
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";
import { type PreviewServer, preview } from "vite";

let server: PreviewServer;
let browser: Browser;

before(async () => {
  server = await preview({ preview: { host: "127.0.0.1", port: 0 }, logLevel: "error" });
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    headless: true,
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the page plans and runs the request in the browser", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const requests: string[] = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(server.resolvedUrls?.local[0] ?? "");
  await page.getByRole("button", { name: "Run" }).click();

  const text = "Plans stream in and run while the model is still writing";
  const hex = createHash("sha256").update(text).digest("hex");
  const reply = page.locator("plankit-reply");
  await reply.getByText(`11 words, SHA-256 ${hex}`).waitFor({ timeout: 20_000 });
  // The two tool steps are counted; the reply is the answer.
  await page
    .locator("plankit-run")
    .getByText(/^Completed in .+ · 2 steps: 2 done$/u)
    .waitFor({ timeout: 5_000 });
  const steps = await page.locator("plankit-steps li").allInnerTexts();
  assert.equal(steps.length, 3, steps.join("\n"));
  assert.match(steps[0] ?? "", /sha256/);
  assert.match(steps[1] ?? "", /count_words/);
  assert.deepEqual(errors, []);
  // Nothing but the page and its assets was fetched: the run happened in the browser.
  assert.ok(
    requests.every((path) => path === "/" || path.startsWith("/assets/")),
    requests.join(", "),
  );
});
