import { describe, expect, it } from "vitest";
import type { PlankitError } from "../../src/index.ts";
import type { PlanModelPart, PlanModelRequest } from "../../src/model.ts";
import { createScriptedModel } from "../../src/test.ts";
import { rejectionOf as failure } from "../fixtures/catch-plankit-error.ts";

async function collect(parts: AsyncIterable<PlanModelPart>): Promise<PlanModelPart[]> {
  const collected: PlanModelPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe("createScriptedModel", () => {
  it("streams each answer in token-sized chunks, then finishes with usage", async () => {
    const model = createScriptedModel({ responses: ['[{"type":"reply","text":"Hello"}]'], charsPerToken: 5 });
    const parts = await collect(model.stream({ system: "rules", prompt: "Say hello" }));
    const texts = parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
    expect(texts.join("")).toBe('[{"type":"reply","text":"Hello"}]');
    expect(texts.slice(0, -1).every((text) => text.length === 5)).toBe(true);
    expect(parts.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      usage: { inputTokens: 3, outputTokens: texts.length },
    });
  });

  it("streams native tool calls as a provider streams them, the arguments at the model's pace", async () => {
    const model = createScriptedModel({
      responses: [
        {
          text: "Looking.",
          toolCalls: [
            { name: "lookup", input: { q: "paris" } },
            { name: "lookup", input: '{"q":"rome"}', id: "r" },
          ],
        },
        "Both found.",
      ],
      charsPerToken: 4,
    });
    const parts = await collect(model.stream({ prompt: "go" }));
    expect(parts.map((part) => part.type)).toEqual([
      "text",
      "text",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-end",
      "tool-call",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-delta",
      "tool-input-end",
      "tool-call",
      "finish",
    ]);
    const deltas = (id: string) =>
      parts.flatMap((part) => (part.type === "tool-input-delta" && part.callId === id ? [part.delta] : [])).join("");
    expect(deltas("call1")).toBe('{"q":"paris"}');
    expect(deltas("r")).toBe('{"q":"rome"}');
    expect(parts.find((part) => part.type === "tool-call" && part.callId === "r")).toMatchObject({
      toolName: "lookup",
    });
    expect(parts.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls", usage: { outputTokens: 9 } });
    await expect(
      collect(createScriptedModel({ responses: [{ toolCalls: [{ input: {} } as never] }] }).stream({ prompt: "go" })),
    ).rejects.toThrow("The scripted answer of call 1 has toolCalls that are not a list of { name, input }");
  });

  it("takes one answer per call, counts the calls and keeps the requests", async () => {
    const model = createScriptedModel({ responses: ["first", "second"] });
    const read = async (prompt: string): Promise<string> =>
      (await collect(model.stream({ prompt }))).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    expect(await read("a")).toBe("first");
    expect(await read("b")).toBe("second");
    expect(model.calls).toBe(2);
    expect(model.requests.map((request) => request.prompt)).toEqual(["a", "b"]);
    const error = await failure(read("c"));
    expect(error.code).toBe("model-error");
    expect(error.message).toContain("no answer for call 3");
  });

  it("asks a responder function with the request and the call number", async () => {
    const seen: [string, number][] = [];
    const model = createScriptedModel({
      responses: async (request: PlanModelRequest, call: number) => {
        seen.push([request.prompt, call]);
        return `answer ${call} to ${request.prompt}`;
      },
    });
    await collect(model.stream({ prompt: "x" }));
    const parts = await collect(model.stream({ prompt: "y" }));
    expect(parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("")).toBe("answer 2 to y");
    expect(seen).toEqual([
      ["x", 1],
      ["y", 2],
    ]);
  });

  it("ends answers as scripted: another reason, no finish part, or an error after the text", async () => {
    const model = createScriptedModel({
      responses: [{ text: "cut", finishReason: "length" }, "open", { text: "boom", error: new Error("socket closed") }],
      finishReason: null,
    });
    expect((await collect(model.stream({ prompt: "1" }))).at(-1)).toEqual({
      type: "finish",
      reason: "length",
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    expect(await collect(model.stream({ prompt: "2" }))).toEqual([{ type: "text", text: "open" }]);
    const seen: PlanModelPart[] = [];
    let thrown: unknown;
    try {
      for await (const part of model.stream({ prompt: "3" })) seen.push(part);
    } catch (error) {
      thrown = error;
    }
    expect(seen).toEqual([{ type: "text", text: "boom" }]);
    expect((thrown as Error).message).toBe("socket closed");
  });

  it("paces tokens on a schedule: the first after firstTokenMs, then one per 1/tokensPerSecond", async () => {
    const waits: number[] = [];
    const model = createScriptedModel({
      responses: ["abcdefghijkl"],
      charsPerToken: 4,
      tokensPerSecond: 10,
      firstTokenMs: 300,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const parts = await collect(model.stream({ prompt: "p" }));
    expect(parts.filter((part) => part.type === "text").length).toBe(3);
    expect(waits.map((ms) => Math.round(ms))).toEqual([300, 100, 100]);
  });

  it("streams without any wait when the rate is unlimited", async () => {
    let waits = 0;
    const model = createScriptedModel({
      responses: ["x".repeat(100)],
      tokensPerSecond: Infinity,
      sleep: async () => {
        waits++;
      },
    });
    await collect(model.stream({ prompt: "p" }));
    expect(waits).toBe(0);
  });

  it("stops at once when the signal fires during a wait, with an aborted error", async () => {
    const controller = new AbortController();
    let waits = 0;
    const model = createScriptedModel({
      responses: ["0123456789"],
      charsPerToken: 2,
      tokensPerSecond: 5,
      // A wait that only ends when aborted, and the abort comes while waiting.
      sleep: (_ms, signal) => {
        waits++;
        setTimeout(() => controller.abort(new Error("user left")), 0);
        return new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(new Error("wait interrupted")), { once: true });
        });
      },
    });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const part of model.stream({ prompt: "p", signal: controller.signal }))
          if (part.type === "text") seen.push(part.text);
      })(),
    );
    expect(error.code).toBe("aborted");
    expect((error.cause as Error).message).toBe("user left");
    expect(seen).toEqual(["01"]);
    expect(waits).toBe(1);
  });

  it("cancels a real timer wait when the signal fires (the test would time out otherwise)", async () => {
    const controller = new AbortController();
    const model = createScriptedModel({ responses: ["abcdefgh"], tokensPerSecond: 0.001 });
    const run = collect(model.stream({ prompt: "p", signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("user left")), 5);
    const error = await failure(run);
    expect(error.code).toBe("aborted");
    expect((error.cause as Error).message).toBe("user left");
  });

  it("rejects a stream whose signal already fired", async () => {
    const model = createScriptedModel({ responses: ["never"] });
    const error = await failure(collect(model.stream({ prompt: "p", signal: AbortSignal.abort() })));
    expect(error.code).toBe("aborted");
  });

  it("rejects invalid pacing options", () => {
    const codes = [{ charsPerToken: 0 }, { tokensPerSecond: 0 }, { firstTokenMs: -1 }].map((options) => {
      try {
        createScriptedModel({ responses: [], ...options });
        return "none";
      } catch (error) {
        return (error as PlankitError).code;
      }
    });
    expect(codes).toEqual(["invalid-options", "invalid-options", "invalid-options"]);
    expect(() => createScriptedModel({} as { responses: string[] })).toThrow(
      "Option responses must be an array of answers, a function of the request or answers by purpose, got undefined",
    );
  });

  it("answers by purpose, counting calls per purpose, with other for calls without a key", async () => {
    const model = createScriptedModel({
      responses: {
        plan: ["plan 1", "plan 2"],
        replan: (request, call) => `patch ${call} for ${request.prompt}`,
        other: ["free text"],
      },
    });
    const read = async (request: PlanModelRequest): Promise<string> =>
      (await collect(model.stream(request))).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    expect(await read({ purpose: "plan", prompt: "a" })).toBe("plan 1");
    expect(await read({ purpose: "replan", prompt: "b" })).toBe("patch 1 for b");
    expect(await read({ purpose: "plan", prompt: "c" })).toBe("plan 2");
    expect(await read({ purpose: "reflect", prompt: "d" })).toBe("free text");
    expect(model.calls).toBe(4);
    const error = await failure(read({ purpose: "plan", prompt: "e" }));
    expect(error.code).toBe("model-error");
    expect(error.message).toBe('The scripted model has no answer for call 3 of "plan" (it has 2)');
    const noOther = createScriptedModel({ responses: { plan: ["x"] } });
    const missing = await failure(collect(noOther.stream({ purpose: "integrate", prompt: "f" })));
    expect(missing.message).toBe(
      'The scripted model has no answers for purpose "integrate" (call 1) and no "other" answers',
    );
  });

  it("rejects answers by purpose with an unknown key or a bad value", () => {
    expect(() => createScriptedModel({ responses: { planning: ["x"] } as never })).toThrow(
      'Option responses has an unknown purpose "planning"',
    );
    expect(() => createScriptedModel({ responses: { plan: "x" } as never })).toThrow(
      "Option responses.plan must be an array of answers or a function of the request, got string",
    );
  });
});
