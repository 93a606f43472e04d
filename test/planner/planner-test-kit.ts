/**
 * Helpers shared by the planner suites.
 *
 * @module
 */
import type { FinishReason, PlanModel, PlanModelRequest } from "../../src/model.ts";
import type { PlannerEvent } from "../../src/runtime.ts";

/** Collects every event of a planner stream. */
export async function collectEvents(events: AsyncIterable<PlannerEvent>): Promise<PlannerEvent[]> {
  const collected: PlannerEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** The `done` event of a collected stream (fails the test when missing). */
export function doneOf(events: readonly PlannerEvent[]): Extract<PlannerEvent, { type: "done" }> {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`the stream did not end with "done" but with ${JSON.stringify(last)}`);
  return last;
}

/** A compact trace of a stream: `step s1`, `issue dropped missing-argument`, `repair 1`, `done`. */
export function traceOf(events: readonly PlannerEvent[]): string[] {
  return events.map((event) => {
    if (event.type === "step") return `step ${event.step.id}`;
    if (event.type === "issue") return `issue ${event.action} ${event.issue.code}`;
    if (event.type === "repair") return `repair ${event.attempt}`;
    return "done";
  });
}

/**
 * A model whose answer arrives in the given chunks, logging each chunk it
 * produces into `log` so a test can see what the planner did in between.
 */
export function createLoggingModel(
  chunks: readonly string[],
  log: string[],
  finish: FinishReason | null = "stop",
): PlanModel & { requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  return {
    requests,
    async *stream(request) {
      requests.push(request);
      for (const [index, chunk] of chunks.entries()) {
        log.push(`model chunk ${index}`);
        yield { type: "text", text: chunk };
      }
      if (finish !== null) {
        log.push("model finish");
        yield { type: "finish", reason: finish };
      }
    },
  };
}

/** Runs `action` and returns what it threw (fails when it did not throw). */
export async function caught(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error("expected the action to throw");
}
