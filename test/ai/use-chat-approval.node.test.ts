/**
 * `useChat` from `@ai-sdk/react` in headless Chromium, with
 * `createChatTransport(runtime)` written in the component as the docs show
 * (a new transport on every render): approving a step continues the run
 * that asked, so the read-only tool and the approved one each run once and
 * the reply appears. The page is bundled with esbuild from plankit's public
 * entries and served on 127.0.0.1.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bundleForBrowser,
  type LocalServer,
  launchChromium,
  serveOnLocalhost,
  servePage,
} from "../fixtures/browser.ts";
import type { PageReport } from "./use-chat-page/chat-page.ts";

let server: LocalServer;
let browser: Browser;

beforeAll(async () => {
  // React's development build, with StrictMode's double renders and effects, as an app under development runs it.
  const script = await bundleForBrowser(new URL("./use-chat-page/chat-page.ts", import.meta.url), {
    "process.env.NODE_ENV": '"development"',
  });
  const page =
    '<!doctype html><meta charset="utf-8"><title>useChat with plankit</title><body><script type="module" src="/chat.js"></script></body>';
  server = await serveOnLocalhost(servePage("/chat.js", script, page));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
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
    await tab.goto(server.origin, { waitUntil: "load", timeout: 60_000 });

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
    await tab.goto(`${server.origin}/?approvalTimeoutMs=200`, { waitUntil: "load", timeout: 60_000 });
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
