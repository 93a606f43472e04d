import { join } from "node:path";
import OpenAI from "openai";
import { startWranglerDev } from "../scripts/lib/start-wrangler-dev.ts";
const root = "/work/wt-stream";
const server = await startWranglerDev(root, { args: ["--config", join(root, "test", "e2e", "fixture-worker", "wrangler.toml")] });
const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "x", maxRetries: 0 });
const calls = async () => (await (await fetch(`${server.url}/e2e/calls`)).json()) as { started: number; finished: number; aborted: number };
try {
  for (let i = 0; i < 5; i++) {
    const before = await calls();
    const stream = await client.chat.completions.create({ model: "plankit", messages: [{ role: "user", content: "count" }], stream: true }, { headers: { "x-e2e-model": "counting" } });
    let left = 0;
    for await (const chunk of stream) {
      if ((chunk.choices[0]?.delta as { reasoning_content?: string }).reasoning_content?.includes("count_call")) { left = performance.now(); break; }
    }
    for (;;) { const c = await calls(); if (c.aborted > before.aborted) break; await new Promise((r) => setTimeout(r, 20)); }
    const after = await calls();
    console.log(`abort seen ${Math.round(performance.now() - left)} ms after leaving; finished ${after.finished - before.finished}`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log(server.output().split("\n").filter((l) => /Uncaught|disposed|connection lost/u.test(l)).join("\n") || "no uncaught lines");
} finally { await server.stop(); }
