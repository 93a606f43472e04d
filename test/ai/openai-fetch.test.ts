import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { fromLanguageModel } from "../../src/ai.ts";
import { LLMPlanner, PlankitError } from "../../src/index.ts";
import { examplePlan, exampleTools } from "../fixtures/tools/example-tools.ts";
import { chatCompletionEvents, createStubFetch, type StubRequest } from "./openai-stub.ts";

// The @ai-sdk/openai HTTP path with the stub server behind an injected
// `fetch`: request building, SSE parsing and finish mapping run for real in
// every runtime, workerd included, where no local server can be started.

const answer = JSON.stringify(examplePlan);
const query = "在 arXiv 找 2 篇 LLM agents 调研;再计算 21*2+5";

describe("@ai-sdk/openai against a stub behind fetch", () => {
  it("plans through the chat-completions API", async () => {
    const requests: StubRequest[] = [];
    const fetch = createStubFetch(
      () => ({ text: answer, usage: { prompt_tokens: 321, completion_tokens: 60 } }),
      requests,
    );
    const openai = createOpenAI({ baseURL: "https://llm.stub.test/v1", apiKey: "sk-test", fetch });
    const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("stub-model"), { temperature: 0 }) });
    const events = [];
    for await (const event of planner.stream({
      query,
      tools: exampleTools,
      profile: { name: "ResearchAgent", role: "planner", language: "zh" },
    }))
      events.push(event);
    const done = events.at(-1);
    expect(done?.type === "done" && done.steps.map((step) => (step.type === "tool" ? step.name : step.type))).toEqual([
      "arxiv_search",
      "calculator",
      "reply",
    ]);
    expect(done?.type === "done" && done.clean).toBe(true);
    expect(done?.type === "done" && done.usage).toEqual({ modelCalls: 1, inputTokens: 321, outputTokens: 60 });
    const request = requests[0];
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.authorization).toBe("Bearer sk-test");
    expect(request?.body).toMatchObject({ model: "stub-model", stream: true, temperature: 0 });
    const messages = request?.body["messages"] as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(messages[0]?.content).toContain("Output ONLY the JSON array");
    expect(messages[1]?.content).toContain(`<USER_QUERY>\n${query}\n</USER_QUERY>`);
  });

  it("emits a step while the server still holds back the rest of the answer", async () => {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let heldUntilStep = false;
    const events = chatCompletionEvents({ text: answer, chunkSize: 16 });
    const lastContent = events.length - 3;
    const fetch = createStubFetch(() => ({ text: answer, chunkSize: 16 }), [], {
      at: lastContent,
      // Without the planner's help the gate opens after 2 s and the test fails.
      wait: () =>
        Promise.race([
          released.then(() => void (heldUntilStep = true)),
          new Promise<void>((resolve) => setTimeout(resolve, 2_000)),
        ]),
    });
    const openai = createOpenAI({ baseURL: "https://llm.stub.test/v1", apiKey: "sk-test", fetch });
    const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("stub-model")) });
    const seen: string[] = [];
    for await (const event of planner.stream({ query, tools: exampleTools })) {
      if (event.type === "step") {
        seen.push(event.step.id);
        release();
      }
    }
    expect(heldUntilStep).toBe(true);
    expect(seen).toEqual(["s1", "s2", "s3"]);
  });

  it("reports a length-limited answer as an unclean finish", async () => {
    const fetch = createStubFetch(() => ({ text: answer, finishReason: "length" }));
    const openai = createOpenAI({ baseURL: "https://llm.stub.test/v1", apiKey: "sk-test", fetch });
    const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("stub-model")) });
    let done;
    for await (const event of planner.stream({ query, tools: exampleTools })) if (event.type === "done") done = event;
    expect(done).toMatchObject({ clean: false, finishReason: "length" });
  });

  it("turns an HTTP error into a model-error", async () => {
    const fetch = createStubFetch(() => ({ text: "", status: 500 }));
    const openai = createOpenAI({ baseURL: "https://llm.stub.test/v1", apiKey: "sk-test", fetch });
    const planner = new LLMPlanner({ model: fromLanguageModel(openai.chat("stub-model"), { maxRetries: 0 }) });
    let error: unknown;
    try {
      await planner.plan({ query, tools: exampleTools });
    } catch (caught) {
      error = caught;
    }
    expect(PlankitError.isInstance(error) && error.code).toBe("model-error");
    expect((error as Error).message).toContain("stub failure 500");
  });
});
