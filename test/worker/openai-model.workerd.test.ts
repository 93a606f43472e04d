import { afterEach, describe, expect, it } from "vitest";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { createStubFetch, type StubRequest } from "../ai/openai-stub.ts";

// The Worker configured for an OpenAI-compatible server, end to end: the
// env selects @ai-sdk/openai, whose requests go out through the isolate's
// global fetch — here a stub of the chat-completions API.

const originalFetch = globalThis.fetch;

afterEach(() => {
  globalThis.fetch = originalFetch;
});

function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .trim()
    .split("\n\n")
    .filter((block) => !block.startsWith("retry: ") && block !== ":")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "";
      const data = lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "{}";
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

describe("the Worker with OPENAI_BASE_URL (an OpenAI-compatible server)", () => {
  it("plans through the server with the configured model and key, runs the demo tools and replies", async () => {
    const requests: StubRequest[] = [];
    const plan =
      '[{"id":"s1","tool":"calculator","args":{"expr":"21*2+5"}},\n{"id":"s2","reply":"21*2+5 = {{s1.value}}"}]';
    globalThis.fetch = createStubFetch(
      () => ({ text: plan, chunkSize: 7, usage: { prompt_tokens: 400, completion_tokens: 30 } }),
      requests,
    );
    const env: WorkerEnv = {
      OPENAI_API_KEY: "sk-stub-key",
      OPENAI_BASE_URL: "https://llm.stub.test/v1",
      PLANKIT_MODEL: "stub-model-7b",
    };
    const response = await createWorker(demoWorkerOptions).fetch(
      new Request("https://plankit.test/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "What is 21*2+5?" }),
      }),
      env,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-plankit-model")).toBe("stub-model-7b");
    const text = await response.text();
    const stream = events(text);
    expect(stream[0]).toMatchObject({ event: "model", data: { name: "stub-model-7b", provider: "openai-compatible" } });
    expect(stream.find((entry) => entry.event === "step-end")?.data).toMatchObject({ stepId: "s1" });
    expect(stream.find((entry) => entry.event === "reply")?.data).toMatchObject({ text: "21*2+5 = 47" });
    expect(stream.at(-1)).toMatchObject({ event: "run-end", data: { reason: "completed" } });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      authorization: "Bearer sk-stub-key",
    });
    expect(requests[0]?.body).toMatchObject({ model: "stub-model-7b", stream: true });
    expect(text).not.toContain("sk-stub-key");
  });

  it("reports an upstream failure as a failed run without leaking the key", async () => {
    globalThis.fetch = createStubFetch(() => ({ text: "", status: 401 }));
    const env: WorkerEnv = { OPENAI_API_KEY: "sk-stub-key", OPENAI_BASE_URL: "https://llm.stub.test/v1" };
    const response = await createWorker(demoWorkerOptions).fetch(
      new Request("https://plankit.test/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "What is 21*2+5?" }),
      }),
      env,
    );
    const text = await response.text();
    const end = events(text).at(-1);
    expect(end).toMatchObject({ event: "run-end", data: { reason: "failed" } });
    expect(JSON.stringify(end?.data)).toContain("model");
    expect(text).not.toContain("sk-stub-key");
  });

  describe("a failed model call says what to fix", () => {
    async function runEnd(env: WorkerEnv): Promise<{ text: string; message: string }> {
      const response = await createWorker(demoWorkerOptions).fetch(
        new Request("https://plankit.test/v1/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "What is 21*2+5?" }),
        }),
        env,
      );
      const text = await response.text();
      const end = events(text).at(-1);
      expect(end).toMatchObject({ event: "run-end", data: { reason: "failed" } });
      return { text, message: JSON.stringify(end?.data) };
    }

    const env: WorkerEnv = {
      OPENAI_API_KEY: "sk-stub-key",
      OPENAI_BASE_URL: "https://llm.stub.test/v1",
      PLANKIT_MODEL: "stub-model-7b",
    };
    const server = "The model server at llm.stub.test (OPENAI_BASE_URL = https://llm.stub.test/v1)";

    it.each([
      [401, "Check OPENAI_API_KEY"],
      [403, "Check OPENAI_API_KEY"],
      [404, "Check that PLANKIT_MODEL names a model this server serves"],
      [429, "(rate limit or quota)"],
    ])("HTTP %i names the host, the setting and the status", async (status, hint) => {
      globalThis.fetch = createStubFetch(() => ({ text: "", status }));
      const { text, message } = await runEnd(env);
      expect(message).toContain(server);
      expect(message).toContain(`HTTP ${status}`);
      expect(message).toContain(hint);
      expect(text).not.toContain("sk-stub-key");
    });

    it("a lost connection names the host and OPENAI_BASE_URL", async () => {
      globalThis.fetch = () => Promise.reject(new TypeError("Network connection lost."));
      const { text, message } = await runEnd(env);
      expect(message).toContain(`${server} could not be reached: Network connection lost.`);
      expect(text).not.toContain("sk-stub-key");
    });

    it("names the default https://api.openai.com/v1 when OPENAI_BASE_URL is unset", async () => {
      globalThis.fetch = () => Promise.reject(new TypeError("Network connection lost."));
      const { message } = await runEnd({ OPENAI_API_KEY: "sk-stub-key" });
      expect(message).toContain(
        "The model server at api.openai.com (the default https://api.openai.com/v1, as OPENAI_BASE_URL is unset) could not be reached",
      );
    });
  });
});
