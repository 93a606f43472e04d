import { join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";

/*
 * The demo's multi-step request through the Worker's streamed routes: the reply reaches the client while the
 * model is still writing it (the reply step is the plan's last element), in many pieces, and joined it is the
 * reply. How early that is on this request is measured by worker-streamed-reply.test.ts (not in the suite).
 */

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const query = "compare the populations of Tokyo and Paris and compute their ratio";
const answer =
  "Tokyo (the Tokyo Metropolis) has about 14,040,000 inhabitants (2023). Paris has 2,133,111 inhabitants (2021). So Tokyo's population is 6.58 times that of Paris. Sources: Tokyo Metropolitan Government, population estimate 2023; INSEE, legal populations 2021.";

let server: WranglerDev;

beforeAll(async () => {
  server = await startWranglerDev(root, {
    args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml")],
  });
});

afterAll(async () => {
  await server?.stop();
});

describe("the reply, streamed as the model writes it", () => {
  it("reaches the official openai client in many pieces that join into the answer", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "any", maxRetries: 0 });
    const pieces: string[] = [];
    for await (const chunk of await client.chat.completions.create({
      model: "plankit",
      messages: [{ role: "user", content: query }],
      stream: true,
    })) {
      const delta = chunk.choices[0]?.delta.content ?? "";
      if (delta !== "") pieces.push(delta);
    }
    expect(pieces.join("")).toBe(answer);
    // The model writes the reply a few characters at a time: its literal text comes as it is written.
    expect(pieces.length).toBeGreaterThan(10);
  }, 60_000);

  it("sends reply-delta events on /v1/run before the plan has ended, joined the reply's text", async () => {
    const response = await fetch(`${server.url}/v1/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const events = (await response.text())
      .split("\n\n")
      .filter((block) => block.includes("\ndata: "))
      .map(
        (block) =>
          JSON.parse(block.slice(block.indexOf("\ndata: ") + 7)) as {
            type: string;
            delta?: string;
            text?: string;
            t?: number;
          },
      );
    const types = events.map((event) => event.type);
    const deltas = events.filter((event) => event.type === "reply-delta");
    expect(deltas.map((event) => event.delta).join("")).toBe(answer);
    expect(events.find((event) => event.type === "reply")?.text).toBe(answer);
    // Written while the model was still writing the plan's last step.
    expect(types.indexOf("reply-delta")).toBeLessThan(types.indexOf("plan-end"));
    expect(types.lastIndexOf("reply-delta")).toBeLessThan(types.indexOf("reply"));
  }, 60_000);
});
