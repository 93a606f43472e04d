import { join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { type CallCounts, countCalls, expectStoppedAfterLeaving, sleep } from "./count-calls.ts";

/*
 * A client that leaves a streamed response. Under wrangler dev the request's signal does not tell the Worker;
 * a write does: the first write after the client left still succeeds, a later one fails and cancels the body.
 * Event streams write a heartbeat comment while they are quiet (worker-defaults.ts, streamHeartbeatMs), so the
 * run is aborted within about two heartbeats even while a tool call runs. The whole (not streamed)
 * completion's disconnect is in worker-clients.test.ts.
 */

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const token = "e2e-token-7d1f";

let server: WranglerDev;
let client: OpenAI;

beforeAll(async () => {
  server = await startWranglerDev(root, {
    args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml")],
    vars: { PLANKIT_TOKEN: token },
  });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
});

afterAll(async () => {
  await server?.stop();
});

const calls = (): Promise<CallCounts> => countCalls(server.url);

describe("a client that leaves a stream", () => {
  const counting = { "x-e2e-model": "counting" };

  it("stops the tools of a streamed completion: no call finishes after it left", async () => {
    const before = await calls();
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "plankit", messages: [{ role: "user", content: "count" }], stream: true },
      { headers: counting, signal: controller.signal },
    );
    for await (const chunk of stream) {
      if (
        (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content?.includes(
          "count_call",
        )
      )
        break;
    }
    await expectStoppedAfterLeaving(server.url, before);
  }, 30_000);

  it("stops the tools of a useChat stream (POST /v1/chat)", async () => {
    const before = await calls();
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...counting },
      body: JSON.stringify({ messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "count" }] }] }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes('"toolName":"count_call"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expectStoppedAfterLeaving(server.url, before);
  }, 30_000);

  it("leaves no uncaught error in the Worker's log", async () => {
    await sleep(500);
    expect(server.output()).not.toMatch(/Uncaught|not disposed|Network connection lost/u);
  });
});
