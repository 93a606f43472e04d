import { describe, expect, it } from "vitest";
import { LLMPlanner } from "../../src/index.ts";
import { streamModelText } from "../../src/model/stream-model-text.ts";
import type { PlanModel, PlanModelPart } from "../../src/model.ts";
import { compileCatalog, selectTools } from "../../src/tools.ts";

/** A model whose stream logs what happens to it, with a pause before its first part. */
function loggingModel(log: string[], parts: readonly PlanModelPart[]): PlanModel {
  return {
    stream() {
      log.push("stream");
      let index = 0;
      return {
        [Symbol.asyncIterator]() {
          return {
            async next(): Promise<IteratorResult<PlanModelPart>> {
              log.push(`next ${index}`);
              if (index === 0) await new Promise((resolve) => setTimeout(resolve, 5));
              const part = parts[index++];
              return part === undefined ? { done: true, value: undefined } : { done: false, value: part };
            },
            async return(): Promise<IteratorResult<PlanModelPart>> {
              log.push("return");
              return { done: true, value: undefined };
            },
          };
        },
      };
    },
  };
}

async function drain(call: AsyncGenerator<string, unknown>): Promise<{ texts: string[]; result: unknown }> {
  const texts: string[] = [];
  for (let next = await call.next(); ; next = await call.next()) {
    if (next.done === true) return { texts, result: next.value };
    texts.push(next.value);
  }
}

describe("streamModelText", () => {
  it("runs whileWaiting once the call is under way, before its first part, and closes the stream after the finish part", async () => {
    const log: string[] = [];
    const model = loggingModel(log, [
      { type: "text", text: "[1," },
      { type: "text", text: "2]" },
      { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } },
      { type: "text", text: "never read" },
    ]);
    const usage = { modelCalls: 0 };
    const { texts, result } = await drain(
      streamModelText(model, { prompt: "p" }, { what: "Planning", usage, whileWaiting: () => log.push("waiting") }),
    );
    expect(texts).toEqual(["[1,", "2]"]);
    expect(result).toBe("stop");
    expect(usage).toEqual({ modelCalls: 1, inputTokens: 3, outputTokens: 2 });
    expect(log).toEqual(["stream", "next 0", "waiting", "next 1", "next 2", "return"]);
  });

  it("does not close a stream that ended by itself, and reports a missing finish", async () => {
    const log: string[] = [];
    const { texts, result } = await drain(
      streamModelText(
        loggingModel(log, [{ type: "text", text: "[]" }]),
        { prompt: "p" },
        { what: "Planning", usage: { modelCalls: 0 } },
      ),
    );
    expect(texts).toEqual(["[]"]);
    expect(result).toBe("missing");
    expect(log).toEqual(["stream", "next 0", "next 1"]);
  });

  it("closes the model's stream when the consumer stops early", async () => {
    const log: string[] = [];
    const call = streamModelText(
      loggingModel(log, [
        { type: "text", text: "[" },
        { type: "text", text: "]" },
      ]),
      { prompt: "p" },
      { what: "Planning", usage: { modelCalls: 0 } },
    );
    expect((await call.next()).value).toBe("[");
    await call.return("missing");
    expect(log).toEqual(["stream", "next 0", "return"]);
  });

  it("turns a stream that throws into model-error, naming the call", async () => {
    const model: PlanModel = {
      stream: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new TypeError("socket closed")) }),
      }),
    };
    await expect(
      drain(streamModelText(model, { prompt: "p" }, { what: "Planning", usage: { modelCalls: 0 } })),
    ).rejects.toMatchObject({
      code: "model-error",
      message: "Planning failed: the model stream threw TypeError: socket closed",
    });
  });
});

describe("LLMPlanner: idle time before the first token", () => {
  it("compiles the shown tools' schemas while the model call waits, then validates steps with them", async () => {
    const tools = [
      {
        name: "lookup",
        description: "Look a fact up",
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
      {
        name: "convert",
        description: "Convert units",
        inputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
      },
    ];
    const catalog = compileCatalog(tools);
    const prepared: string[][] = [];
    const prepare = catalog.prepare.bind(catalog);
    catalog.prepare = (names) => {
      prepared.push([...names]);
      prepare(names);
    };
    const log: string[] = [];
    const plan = '[{"id":"s1","tool":"lookup","args":{"q":"x"}},{"id":"s2","reply":"{{s1}}"}]';
    const inner = loggingModel(log, [
      { type: "text", text: plan },
      { type: "finish", reason: "stop" },
    ]);
    const model: PlanModel = {
      stream: (request) => {
        log.push(prepared.length === 0 ? "model called, nothing prepared" : "model called after prepare");
        return inner.stream(request);
      },
    };
    const steps = await new LLMPlanner({
      model,
      topK: 1,
      select: (query, tools, k) => selectTools(query, tools, { k }),
    }).plan({ query: "look up x", tools: catalog });
    expect(steps.map((step) => step.id)).toEqual(["s1", "s2"]);
    expect(prepared).toEqual([["lookup"]]);
    expect(log.slice(0, 3)).toEqual(["model called, nothing prepared", "stream", "next 0"]);
  });
});
