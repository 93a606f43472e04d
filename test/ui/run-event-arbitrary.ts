/**
 * fast-check arbitraries of run event sequences, for the store's properties.
 *
 * @module
 */
import fc from "fast-check";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";

const runId = "run-1";
const stepId = fc.constantFrom("s1", "s2", "s3", "s4");
// Any code points, newlines and quotes included, so encoders and chunk splits meet every case.
const text = fc.string({ unit: "binary", maxLength: 12 });
const usage = { modelCalls: 1, toolCalls: 2, cacheHits: 0, replans: 0, inputTokens: 3, outputTokens: 4 };

/** One event of a run (not `run-end`), its `t` set later. */
const middleEvent: fc.Arbitrary<RuntimeEvent> = fc.oneof(
  fc.record({ id: stepId, city: text, index: fc.nat(9) }).map(
    ({ id, city, index }): RuntimeEvent => ({
      type: "step-planned",
      runId,
      t: 0,
      step: { id, type: "tool", name: "weather", arguments: { city } },
      index,
      source: "plan",
      safe: true,
    }),
  ),
  fc.record({ id: stepId, attempt: fc.integer({ min: 1, max: 3 }), input: text }).map(
    ({ id, attempt, input }): RuntimeEvent => ({
      type: "step-start",
      runId,
      t: 0,
      stepId: id,
      attempt,
      tool: "weather",
      input: { city: input },
      cached: false,
    }),
  ),
  fc.record({ id: stepId, result: text }).map(
    ({ id, result }): RuntimeEvent => ({
      type: "step-end",
      runId,
      t: 0,
      stepId: id,
      attempt: 1,
      result: { text: result },
      durationMs: 1,
      cached: false,
    }),
  ),
  fc.record({ id: stepId, message: text, final: fc.boolean() }).map(
    ({ id, message, final }): RuntimeEvent => ({
      type: "step-error",
      runId,
      t: 0,
      stepId: id,
      attempt: 1,
      error: { code: "tool-error", message },
      final,
      durationMs: 1,
    }),
  ),
  fc
    .record({ id: stepId, reason: text })
    .map(({ id, reason }): RuntimeEvent => ({ type: "step-skipped", runId, t: 0, stepId: id, code: "denied", reason })),
  fc.record({ ids: fc.uniqueArray(stepId, { minLength: 1, maxLength: 3 }), note: text }).map(
    ({ ids, note }): RuntimeEvent => ({
      type: "approval-request",
      runId,
      t: 0,
      requestId: "a1",
      source: "plan",
      attempt: 1,
      steps: ids.map((id) => ({
        stepId: id,
        tool: "save_note",
        description: "Save a note",
        arguments: { text: note },
        waiting: [],
        mode: "plan" as const,
      })),
    }),
  ),
  fc.record({ id: stepId, approved: fc.boolean(), note: fc.option(text, { nil: undefined }) }).map(
    ({ id, approved, note }): RuntimeEvent => ({
      type: "approval-decision",
      runId,
      t: 0,
      requestId: "a1",
      stepId: id,
      approved,
      by: "caller",
      ...(note === undefined ? {} : approved ? { arguments: { text: note } } : { reason: note }),
    }),
  ),
  text.map((delta): RuntimeEvent => ({ type: "reply-delta", runId, t: 0, delta })),
  text.map((query): RuntimeEvent => ({ type: "plan-start", runId, t: 0, kind: "plan", query, attempt: 1 })),
);

/** A run's events: some events, then `run-end`, with `t` counting up. */
export const runEvents: fc.Arbitrary<RuntimeEvent[]> = fc
  .tuple(
    fc.array(middleEvent, { maxLength: 25 }),
    fc.constantFrom("completed", "failed", "aborted") as fc.Arbitrary<"completed" | "failed" | "aborted">,
  )
  .map(([events, reason]) =>
    [...events, { type: "run-end", runId, t: 0, reason, usage, durationMs: 5 } as RuntimeEvent].map((event, t) => ({
      ...event,
      t,
    })),
  );

/**
 * Cuts a byte string at the given positions.
 *
 * @param bytes - the bytes.
 * @param cuts - positions, any order, any size (taken modulo the length).
 * @returns the pieces, in order.
 */
export function splitBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(from, point));
    from = point;
  }
  return pieces;
}

/**
 * A stream of the given chunks.
 *
 * @param chunks - bytes or text.
 * @returns the stream.
 */
export function streamOf<T extends Uint8Array | string>(chunks: readonly T[]): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++] as T);
      else controller.close();
    },
  });
}
