import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemo } from "../../scripts/lib/build-demo.ts";
import { buildWorker, type WorkerModule } from "../../scripts/lib/build-worker.ts";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/start-wrangler-dev.ts";
import { type OpenAIStreamServer, startOpenAIStreamServer } from "../ai/openai-stream-server.ts";
import { chatCompletionEvents } from "../ai/openai-stub.ts";

// The Worker as `scripts/deploy.ts` deploys it — split into the modules it
// starts with and the ones it loads on first use — run by `wrangler dev
// --no-bundle` against a local OpenAI-compatible server.

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
const directory = join(root, ".tmp", "worker-deploy-e2e");
const plan = '[{"id":"s1","tool":"calculator","args":{"expr":"21*2+5"}},\n{"id":"s2","reply":"21*2+5 = {{s1.value}}"}]';

let modules: WorkerModule[];
let model: OpenAIStreamServer;
let server: WranglerDev;

beforeAll(async () => {
  await buildDemo(root);
  modules = await buildWorker(root, directory);
  model = await startOpenAIStreamServer();
  model.respond = () => chatCompletionEvents({ text: plan, chunkSize: 9 });
  // The script before `--var`, which would take it as one more value.
  server = await startWranglerDev(root, {
    args: [
      join(directory, "index.js"),
      "--no-bundle",
      "--var",
      `OPENAI_BASE_URL:${model.baseURL}`,
      "--var",
      "PLANKIT_MODEL:stub-model",
    ],
  });
});

afterAll(async () => {
  await server?.stop();
  await model?.close();
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("the deploy build of the Worker", () => {
  it("starts with a small part of its code: the providers and the AI SDK load on first use", () => {
    const startup = modules.filter((module) => module.atStartup);
    const startupBytes = startup.reduce((sum, module) => sum + module.bytes, 0);
    const allBytes = modules.reduce((sum, module) => sum + module.bytes, 0);
    expect(startup[0]?.file).toBe("index.js");
    expect(modules.find((module) => module.file.includes("create-openai-model"))?.atStartup).toBe(false);
    expect(modules.find((module) => module.file.includes("create-workers-ai-model"))?.atStartup).toBe(false);
    expect(startupBytes).toBeLessThan(512 * 1024);
    expect(startupBytes).toBeLessThan(allBytes / 2);
  });

  it("plans with the model OPENAI_BASE_URL names, loading its provider on the first request", async () => {
    const response = await post("/v1/run", { query: "What is 21*2+5?" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-plankit-model-provider")).toBe("openai-compatible");
    const text = await response.text();
    expect(text).toContain('"text":"21*2+5 = 47"');
    expect(text).toContain('"reason":"completed"');
    expect(model.requests.at(-1)?.path).toBe("/v1/chat/completions");
    expect(model.requests.at(-1)?.body["model"]).toBe("stub-model");
  });

  it("serves /v1/chat, loading plankit/ai on the first request", async () => {
    const response = await post("/v1/chat", {
      id: "chat_1",
      trigger: "submit-message",
      messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "What is 21*2+5?" }] }],
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("21*2+5 = 47");
    expect(text).toContain('"type":"finish"');
  });
});
