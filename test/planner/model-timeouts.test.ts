import { describe, expect, it } from "vitest";
import { LLMPlanner, ToolCallPlanner, understandRequest } from "../../src/index.ts";
import type { PlanModel, PlanModelRequest } from "../../src/model.ts";
import { rejectionOf } from "../fixtures/catch-plankit-error.ts";
import { mcpTools } from "../fixtures/tools/example-tools.ts";
import { collectEvents } from "./planner-test-kit.ts";

/** A model that sends `parts` text parts, then nothing more until aborted. */
function createStallingModel(parts: number): PlanModel & { requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  return {
    requests,
    async *stream(request) {
      requests.push(request);
      for (let index = 0; index < parts; index++) yield { type: "text", text: "[" };
      await new Promise<void>((resolve) => request.signal?.addEventListener("abort", () => resolve()));
    },
  };
}

describe("LLMPlanner model-call timeouts", () => {
  it("fails a model that goes silent with a timeout naming the limit, in every mode", async () => {
    for (const mode of ["direct", "sketch", "tools"] as const) {
      const model = createStallingModel(1);
      const modelTimeouts = { idleMs: 40, totalMs: 5_000 };
      const planner =
        mode === "tools"
          ? new ToolCallPlanner({ model, modelTimeouts })
          : new LLMPlanner({ model, mode, modelTimeouts });
      const started = Date.now();
      const error = await rejectionOf(collectEvents(planner.stream({ query: "q", tools: mcpTools })));
      expect(error.code, mode).toBe("timeout");
      expect(error.message, mode).toContain("sent nothing for 40 ms");
      expect(Date.now() - started, mode).toBeLessThan(2_000);
    }
  });

  it("bounds the whole call too, and understandRequest() as well", async () => {
    const chatty: PlanModel = {
      async *stream(request) {
        for (;;) {
          yield { type: "text", text: " " };
          await new Promise((resolve) => setTimeout(resolve, 10));
          if (request.signal?.aborted === true) return;
        }
      },
    };
    const planner = new LLMPlanner({ model: chatty, modelTimeouts: { idleMs: 1_000, totalMs: 80 } });
    expect((await rejectionOf(planner.plan({ query: "q", tools: mcpTools }))).message).toContain(
      "took longer than 80 ms",
    );
    const understood = understandRequest({ model: chatty, query: "q", modelTimeouts: { idleMs: 1_000, totalMs: 80 } });
    expect((await rejectionOf(understood)).code).toBe("timeout");
  });

  it("reads limits as the runtime does: an object of the two limits, either left to its default", () => {
    const model = createStallingModel(0);
    for (const [modelTimeouts, message] of [
      [null, "Option modelTimeouts must be an object { idleMs?, totalMs? }, got null"],
      [5000, "Option modelTimeouts must be an object { idleMs?, totalMs? }, got 5000"],
      [{ idleMs: 1, totalMs: 2, idle: 5 }, 'Unknown modelTimeouts option "idle"; did you mean "idleMs"?'],
    ] as const) {
      expect(() => new LLMPlanner({ model, modelTimeouts: modelTimeouts as never })).toThrow(message);
      expect(() => new ToolCallPlanner({ model, modelTimeouts: modelTimeouts as never })).toThrow(message);
    }
    expect(() => new LLMPlanner({ model, modelTimeouts: { idleMs: 5_000 } })).not.toThrow();
  });

  it("refuses limits that are not positive numbers, naming the field and value", () => {
    const model = createStallingModel(0);
    expect(() => new LLMPlanner({ model, modelTimeouts: { idleMs: 0, totalMs: 10 } })).toThrow(
      "modelTimeouts.idleMs must be a number > 0, got 0",
    );
    expect(() => new LLMPlanner({ model, modelTimeouts: { idleMs: 10, totalMs: "5" as never } })).toThrow(
      'modelTimeouts.totalMs must be a number > 0, got "5"',
    );
  });
});
