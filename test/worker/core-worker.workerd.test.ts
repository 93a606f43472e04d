import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";
import { createWorker } from "../../worker/create-worker.ts";
import { createRunSetup } from "../../worker/runs/create-run-setup.ts";
import type { SelectedModel } from "../../worker/select-model.ts";
import type { WorkerOptions } from "../../worker/worker-options.ts";

const origin = "https://plankit.test";
const plan = '[{"type":"tool","name":"shout","arguments":{"text":"hi"}},{"type":"reply","text":"{{s1.text}}"}]';

function post(path: string, body: string): Request {
  return new Request(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
}

const scripted: SelectedModel = {
  model: createScriptedModel({ responses: () => plan }),
  name: "scripted",
  provider: "test",
};

function createShoutTools(): ToolRegistry {
  return new ToolRegistry().register({
    name: "shout",
    description: "Upper-cases a text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
    execute: ({ text }: { text: string }) => ({ text: text.toUpperCase() }),
  });
}

describe("the core Worker, without the demo", () => {
  it("has no tools and no guide, and refuses to plan without a configured model, naming the settings", async () => {
    const worker = createWorker();
    const tools = await worker.fetch(new Request(`${origin}/v1/tools`), { OPENAI_API_KEY: "sk-test" });
    expect(await tools.json()).toEqual({ model: { name: "gpt-4o-mini", provider: "openai" }, tools: [] });
    const unconfigured = await worker.fetch(post("/v1/run", '{"query":"x"}'), {});
    expect(unconfigured.status).toBe(503);
    const detail = expect.stringContaining("OPENAI_API_KEY");
    expect(await unconfigured.json()).toMatchObject({ code: "model-not-configured", detail });
    const completions = await worker.fetch(post("/v1/chat/completions", "{}"), {});
    expect(await completions.json()).toMatchObject({ error: { type: "server_error", code: "model_not_configured" } });
    const guide = await worker.fetch(post("/v1/guide", '{"message":"hi"}'), { OPENAI_API_KEY: "sk-test" });
    expect(guide.status).toBe(404);
  });

  it("plans and runs with the tools and offline model its options give", async () => {
    const worker = createWorker({ createTools: () => createShoutTools(), offlineModel: () => scripted });
    const response = await worker.fetch(post("/v1/run", '{"query":"Shout hi"}'), {});
    expect(response.headers.get("x-plankit-model")).toBe("scripted");
    expect(await response.text()).toContain('"text":"HI"');
  });

  it("gives session and durable runs the same tools, model and approval policy", () => {
    const options: WorkerOptions = {
      createTools: () => createShoutTools(),
      offlineModel: () => scripted,
      approvalPolicy: { shout: { approval: "plan" } },
    };
    const setup = createRunSetup({}, { tools: ["shout"] }, options);
    expect(setup.registry.list().map((tool) => tool.name)).toEqual(["shout"]);
    expect(setup.selected.name).toBe("scripted");
    expect(setup.policy).toEqual({ shout: { approval: "plan" } });
    const bare = createRunSetup({ OPENAI_API_KEY: "sk-test" }, {}, {});
    expect(bare.registry.list()).toEqual([]);
    expect(bare.policy).toBeUndefined();
  });
});
