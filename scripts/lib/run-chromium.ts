/**
 * Runs the portable bundle in headless Chromium (from `@sparticuz/chromium`,
 * driven by `playwright-core`), served from a local HTTP server.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, sep } from "node:path";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";
import type { HarnessReport } from "../../test/harness/runner.ts";
import type { PortableBundle } from "./build-portable-bundle.ts";
import { failedStep, toRuntimeResult } from "./harness-report.ts";
import type { RuntimeResult } from "./runtime-result.ts";

/** The switches every test browser starts with: headless, no sandbox or GPU, no background traffic. */
export const launchArguments = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

function serve(directory: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const file = normalize(join(directory, path === "/" ? "index.html" : path));
    if (!file.startsWith(directory + sep)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        const extension = file.slice(file.lastIndexOf("."));
        response.writeHead(200, { "content-type": contentTypes[extension] ?? "application/octet-stream" }).end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/**
 * Starts one headless Chromium, opens the bundle's page on a local server,
 * runs every portable suite in the page and collects the report.
 *
 * @param bundle - the bundle from `buildPortableBundle`.
 * @param timeoutMs - how long the whole run may take.
 * @returns the run as a {@link RuntimeResult}.
 * @example
 * ```ts
 * const result = await runChromium(await buildPortableBundle(process.cwd()));
 * ```
 */
export async function runChromium(bundle: PortableBundle, timeoutMs = 600_000): Promise<RuntimeResult> {
  const started = Date.now();
  const server = await serve(bundle.directory);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let browser: Awaited<ReturnType<typeof playwright.launch>> | undefined;
  const pageErrors: string[] = [];
  try {
    const executablePath = await chromium.executablePath();
    browser = await playwright.launch({ executablePath, args: launchArguments, headless: true });
    const page = await browser.newPage();
    page.on("console", (message) => console.log(`[chromium ${message.type()}] ${message.text()}`));
    page.on("pageerror", (error) => pageErrors.push(`Page error: ${error.message}`));
    await page.goto(`${origin}/`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = (await Promise.race([
      page.evaluate(async () => {
        const harness = (await import("/portable.js" as string)) as {
          runTests(options: { runtime: string }): Promise<unknown>;
        };
        return harness.runTests({ runtime: "chromium" });
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no report after ${timeoutMs}ms`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer))) as HarnessReport;
    const result = toRuntimeResult("chromium", report, Date.now() - started);
    result.errors.push(...pageErrors);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failedStep("chromium", [`Chromium run failed: ${message}`, ...pageErrors].join("\n"), Date.now() - started);
  } finally {
    await browser?.close().catch(() => {});
    await new Promise((resolve) => server.close(resolve));
  }
}
