import { describe, expect, it } from "vitest";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import { selectDemoModel } from "../../worker/demo/select-demo-model.ts";
import { selectModel } from "../../worker/select-model.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { parseStrictSse } from "./parse-strict-sse.ts";

const origin = "https://plankit.test";

/** What the fake binding was asked. */
interface RunCall {
  model: string;
  inputs: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/**
 * A stand-in for the Workers AI binding: `run(model, inputs, options)`
 * answering a streamed request with Server-Sent Events in Workers AI's
 * own shape (`data: {"response": "…"}` per token, usage, then `[DONE]`).
 */
function createFakeAi(answer: string, calls: RunCall[]): Ai {
  const run = async (
    model: string,
    inputs: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ReadableStream<Uint8Array>> => {
    calls.push({ model, inputs, signal: options?.signal });
    const encoder = new TextEncoder();
    const pieces = answer.match(/[\s\S]{1,7}/gu) ?? [];
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces)
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({ response: piece })}\n\n`));
        controller.enqueue(
          encoder.encode(
            `data: ${JSON.stringify({ response: "", usage: { prompt_tokens: 321, completion_tokens: pieces.length, total_tokens: 321 + pieces.length } })}\n\n`,
          ),
        );
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
  };
  return { run } as unknown as Ai;
}

describe("the Worker on Workers AI (an AI binding, no OpenAI settings)", () => {
  it("plans and runs with PLANKIT_MODEL through the binding, streaming", async () => {
    const calls: RunCall[] = [];
    const plan =
      '[\n{"id":"s1","tool":"calculator","args":{"expr":"21*2+5"}},\n{"id":"s2","reply":"21*2+5 = {{s1.value}}"}\n]';
    const env: WorkerEnv = { AI: createFakeAi(plan, calls), PLANKIT_MODEL: "@cf/qwen/qwen2.5-coder-32b-instruct" };
    const response = await createWorker(demoWorkerOptions).fetch(
      new Request(`${origin}/v1/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "What is 21*2+5?" }),
      }),
      env,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-plankit-model")).toBe("@cf/qwen/qwen2.5-coder-32b-instruct");
    expect(response.headers.get("x-plankit-model-provider")).toBe("workers-ai");
    const events = parseStrictSse(await response.text()).map((event) => event.data);
    expect(events[0]).toMatchObject({ type: "model", provider: "workers-ai" });
    expect(events.filter((event) => event["type"] === "step-issue")).toEqual([]);
    expect(events.find((event) => event["type"] === "step-end")).toMatchObject({ stepId: "s1", result: { value: 47 } });
    expect(events.find((event) => event["type"] === "reply")).toMatchObject({ text: "21*2+5 = 47" });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(events.find((event) => event["type"] === "plan-end")).toMatchObject({ clean: true, inputTokens: 321 });

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.model).toBe("@cf/qwen/qwen2.5-coder-32b-instruct");
    expect(call?.inputs["stream"]).toBe(true);
    const messages = call?.inputs["messages"] as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(messages[1]?.content).toContain("What is 21*2+5?");
    expect(messages[1]?.content).toContain('"name":"calculator"');
    expect(call?.signal).toBeInstanceOf(AbortSignal);
  });

  it("defaults to a Llama 3.3 model, and OpenAI settings win over the binding", () => {
    const ai = createFakeAi("[]", []);
    expect(selectModel({ AI: ai })).toMatchObject({
      name: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      provider: "workers-ai",
    });
    expect(selectModel({ AI: ai, OPENAI_API_KEY: "sk-test" })).toMatchObject({
      name: "gpt-4o-mini",
      provider: "openai",
    });
    expect(selectModel({}, selectDemoModel)).toMatchObject({ provider: "demo" });
  });

  it("a failing binding names the binding and PLANKIT_MODEL", async () => {
    const ai = {
      run: () => Promise.reject(new Error("5007: No such model @cf/no/such-model or task")),
    } as unknown as Ai;
    const response = await createWorker(demoWorkerOptions).fetch(
      new Request(`${origin}/v1/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "What is 21*2+5?" }),
      }),
      { AI: ai, PLANKIT_MODEL: "@cf/no/such-model" },
    );
    const text = await response.text();
    expect(text).toContain(
      'The Workers AI binding AI failed for model \\"@cf/no/such-model\\" (PLANKIT_MODEL): 5007: No such model',
    );
    expect(text).toContain("Check that PLANKIT_MODEL names a Workers AI text-generation model");
  });
});
