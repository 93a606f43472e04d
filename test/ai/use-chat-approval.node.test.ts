/**
 * `useChat` from `@ai-sdk/react` in headless Chromium, with
 * `createChatTransport(runtime)` written in the component as the docs show
 * (a new transport on every render): approving a step continues the run
 * that asked, so the read-only tool and the approved one each run once and
 * the reply appears. The page is bundled with esbuild from plankit's public
 * entries and served on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import chromium from "@sparticuz/chromium";
import { build } from "esbuild";
import { type Browser, chromium as playwright } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageReport } from "./use-chat-page/chat-page.ts";

const launchArguments = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./use-chat-page/chat-page.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // React's development build, with StrictMode's double renders and effects, as an app under development runs it.
    define: { "process.env.NODE_ENV": '"development"' },
    write: false,
    logLevel: "error",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const page =
    '<!doctype html><meta charset="utf-8"><title>useChat with plankit</title><body><script type="module" src="/chat.js"></script></body>';
  server = createServer((request, response) => {
    if (request.url === "/chat.js")
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    args: launchArguments,
    headless: true,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("@ai-sdk/react useChat with createChatTransport written in the component", () => {
  it("continues the run after Approve: each tool runs once, the first run ends, and the reply shows", async () => {
    const tab = await browser.newPage();
    const pageErrors: string[] = [];
    tab.on("pageerror", (error) => pageErrors.push(error.message));
    tab.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    const pageReport = () =>
      tab.evaluate(() =>
        structuredClone((globalThis as { chatPageReport?: PageReport }).chatPageReport),
      ) as Promise<PageReport>;
    await tab.goto(origin, { waitUntil: "load", timeout: 60_000 });

    await tab.locator('input[name="message"]').fill("Note the weather in Paris");
    await tab.getByRole("button", { name: "Send" }).click();
    const approve = tab.locator('button[data-approve="s2"]');
    await approve.waitFor({ timeout: 30_000 });
    await tab.locator('main[data-status="ready"]').waitFor({ timeout: 30_000 });
    const asked = await pageReport();
    expect(asked.toolCalls).toEqual({ weather: 1, save_note: 0 });
    expect(asked.runs).toBe(1);
    expect(asked.ended).toEqual([]);

    await approve.click();
    // The answer goes out as the chat's second request; wait for its response to finish.
    await tab.waitForFunction(
      () => ((globalThis as { chatPageReport?: PageReport }).chatPageReport?.finishReasons.length ?? 0) >= 2,
      undefined,
      { timeout: 30_000 },
    );
    await tab.locator('main[data-status="ready"]').waitFor({ timeout: 30_000 });

    const done = await pageReport();
    expect(done.toolCalls).toEqual({ weather: 1, save_note: 1 });
    expect(done.runs).toBe(1);
    expect(done.ended).toEqual(["completed"]);
    expect(await tab.locator(".assistant .text").allTextContents()).toEqual(["Saved a note of 12 characters."]);
    // The second response is the rest of the first run, to its end ("stop" comes with the run's end).
    expect(done.finishReasons).toEqual([null, "stop"]);
    expect(done.renders).toBeGreaterThan(2);
    expect(done.errors).toEqual([]);
    expect(await tab.locator("section.assistant").count()).toBe(1);
    expect(await tab.locator("section.assistant").getAttribute("data-id")).toBe("run_1");
    expect(
      await tab
        .locator("section.assistant .tool")
        .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute("data-step"), node.getAttribute("data-state")])),
    ).toEqual([
      ["s1", "output-available"],
      ["s2", "output-available"],
    ]);
    expect(await tab.locator(".error").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await tab.close();
  }, 120_000);

  it("shows an error, and runs nothing again, when the answer comes after the run ended", async () => {
    const tab = await browser.newPage();
    const pageErrors: string[] = [];
    tab.on("pageerror", (error) => pageErrors.push(error.message));
    const pageReport = () =>
      tab.evaluate(() =>
        structuredClone((globalThis as { chatPageReport?: PageReport }).chatPageReport),
      ) as Promise<PageReport>;
    // The runtime denies an unanswered step after 200 ms, and the run ends with nobody reading it.
    await tab.goto(`${origin}/?approvalTimeoutMs=200`, { waitUntil: "load", timeout: 60_000 });
    await tab.locator('input[name="message"]').fill("Note the weather in Paris");
    await tab.getByRole("button", { name: "Send" }).click();
    const approve = tab.locator('button[data-approve="s2"]');
    await approve.waitFor({ timeout: 30_000 });
    await tab.locator('main[data-status="ready"]').waitFor({ timeout: 30_000 });
    await tab.waitForFunction(
      () => ((globalThis as { chatPageReport?: PageReport }).chatPageReport?.ended.length ?? 0) >= 1,
      undefined,
      { timeout: 30_000 },
    );

    await approve.click();
    await tab.locator('main[data-status="error"]').waitFor({ timeout: 30_000 });
    expect(await tab.locator(".error").textContent()).toMatch(
      /^Chat "[^"]+" answered approval requests of message "run_1", but no run waits for them any more \(it ended/u,
    );
    const report = await pageReport();
    expect(report.ended).toHaveLength(1);
    expect(report.toolCalls).toEqual({ weather: 1, save_note: 0 });
    expect(report.runs).toBe(1);
    expect(pageErrors).toEqual([]);
    await tab.close();
  }, 120_000);
});
