/**
 * Builds the app with `next build`, starts it with `next start`, and checks
 * the route handler's UI message stream and the page's `useChat` in headless
 * Chromium (from @sparticuz/chromium, driven by playwright-core).
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";

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
  assert.equal(chunks.at(-1)?.type, "finish");
});

test("the page sends the question with useChat and shows the steps and the reply", async () => {
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    headless: true,
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(origin);
  await page.getByRole("button", { name: "Ask" }).click();
  const assistant = page.locator('li[data-role="assistant"]');
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
