/**
 * The default step executor on its own, over a scripted `attempt`: it
 * attempts until an outcome is not retryable, waits the backoff between
 * attempts, and ends as `aborted` when a wait is cut short.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BackoffPolicy } from "../../../src/runtime/compute-backoff.ts";
import { createRetryingExecutor } from "../../../src/runtime/run/retrying-executor.ts";
import type { StepAttemptOptions, StepAttemptOutcome, StepCall } from "../../../src/runtime/step-executor.ts";

const fail = (retryable: boolean): StepAttemptOutcome => ({
  ok: false,
  error: { code: "tool-error", message: "down" },
  retryable,
});
const success: StepAttemptOutcome = { ok: true, value: "done", cached: false };

/** A call whose attempts answer `outcomes` in turn, recording the options each got. */
function scriptedCall(outcomes: StepAttemptOutcome[], backoff: BackoffPolicy, signal = new AbortController().signal) {
  const options: StepAttemptOptions[] = [];
  const call = {
    runId: "r1",
    step: { id: "s1", type: "tool", name: "read", arguments: {} },
    input: {},
    retries: outcomes.length,
    timeoutMs: 1_000,
    backoff,
    signal,
    repeatable: true,
    previousAttempts: 0,
    replayed: () => undefined,
    attempt: async (given: StepAttemptOptions = {}) => {
      options.push(given);
      const outcome = outcomes[options.length - 1];
      if (outcome === undefined) throw new Error("attempted past the script");
      return outcome;
    },
  } satisfies StepCall;
  return { call, options };
}

/** A sleep that records its waits and returns at once. */
function recordingSleep() {
  const waits: { ms: number; signal: AbortSignal }[] = [];
  const sleep = async (ms: number, signal: AbortSignal): Promise<void> => {
    waits.push({ ms, signal });
  };
  return { sleep, waits };
}

const noJitter: BackoffPolicy = { initialMs: 100, factor: 2, maxMs: 5_000, jitter: 0 };

describe("createRetryingExecutor", () => {
  it("returns the first success without waiting", async () => {
    const { sleep, waits } = recordingSleep();
    const { call, options } = scriptedCall([success], noJitter);
    expect(await createRetryingExecutor(() => 0, sleep)(call)).toBe(success);
    expect(options.length).toBe(1);
    expect(waits).toEqual([]);
  });

  it("returns a failure that may not be retried at once, without waiting", async () => {
    const { sleep, waits } = recordingSleep();
    const final = fail(false);
    const { call, options } = scriptedCall([final], noJitter);
    expect(await createRetryingExecutor(() => 0, sleep)(call)).toBe(final);
    expect(options.length).toBe(1);
    expect(waits).toEqual([]);
  });

  it("attempts again after each retryable failure, waiting the exponential backoff it announced", async () => {
    const { sleep, waits } = recordingSleep();
    const controller = new AbortController();
    const { call, options } = scriptedCall([fail(true), fail(true), fail(true), success], noJitter, controller.signal);
    expect(await createRetryingExecutor(() => 0, sleep)(call)).toBe(success);
    expect(options).toEqual([
      { retryDelayMs: 100 },
      { retryDelayMs: 200 },
      { retryDelayMs: 400 },
      { retryDelayMs: 800 },
    ]);
    expect(waits.map((wait) => wait.ms)).toEqual([100, 200, 400]);
    expect(waits.every((wait) => wait.signal === controller.signal)).toBe(true);
  });

  it("stops at the first failure that may not be retried, after earlier retryable ones", async () => {
    const { sleep, waits } = recordingSleep();
    const final = fail(false);
    const { call, options } = scriptedCall([fail(true), final, success], noJitter);
    expect(await createRetryingExecutor(() => 0, sleep)(call)).toBe(final);
    expect(options.length).toBe(2);
    expect(waits.length).toBe(1);
  });

  it("caps the wait at maxMs and draws the jitter from its random source", async () => {
    const { sleep, waits } = recordingSleep();
    const draws = [0.5, 0, 0.99];
    const random = (): number => draws.shift() ?? 0;
    const { call } = scriptedCall([fail(true), fail(true), fail(true), success], {
      initialMs: 1_000,
      factor: 10,
      maxMs: 3_000,
      jitter: 0.5,
    });
    await createRetryingExecutor(random, sleep)(call);
    // 1000 × (1 − 0.5 × 0.5), then min(3000, 10000) × (1 − 0), then min(3000, 100000) × (1 − 0.5 × 0.99).
    expect(waits.map((wait) => wait.ms)).toEqual([750, 3_000, 1_515]);
  });

  it("ends as aborted, attempting no more, when a wait is cut short", async () => {
    const controller = new AbortController();
    const sleep = (_ms: number, signal: AbortSignal): Promise<void> =>
      new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    const { call, options } = scriptedCall([fail(true), success], noJitter, controller.signal);
    const pending = createRetryingExecutor(() => 0, sleep)(call);
    await Promise.resolve();
    await Promise.resolve();
    controller.abort();
    expect(await pending).toEqual({
      ok: false,
      error: { code: "aborted", message: "The run ended while a retry waited" },
      retryable: false,
    });
    expect(options.length).toBe(1);
  });

  it("attempts exactly once per retryable failure plus one, each wait within the backoff's bounds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { maxLength: 8 }),
        fc.boolean(),
        fc.record({
          initialMs: fc.integer({ min: 0, max: 10_000 }),
          factor: fc.double({ min: 1, max: 4, noNaN: true }),
          maxMs: fc.integer({ min: 0, max: 20_000 }),
          jitter: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        async (retryable, succeeds, backoff, draw) => {
          // Retryable failures up to the first `false`, then the final outcome.
          const leading = retryable.indexOf(false) === -1 ? retryable.length : retryable.indexOf(false);
          const outcomes = [...Array.from({ length: leading }, () => fail(true)), succeeds ? success : fail(false)];
          const { sleep, waits } = recordingSleep();
          const { call, options } = scriptedCall(outcomes, backoff);
          const final = await createRetryingExecutor(() => draw, sleep)(call);
          expect(final).toBe(outcomes.at(-1));
          expect(options.length).toBe(leading + 1);
          expect(waits.length).toBe(leading);
          for (const [index, wait] of waits.entries()) {
            const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** index);
            expect(wait.ms).toBe(options[index]?.retryDelayMs);
            expect(wait.ms).toBeGreaterThanOrEqual(Math.max(0, Math.floor(base * (1 - backoff.jitter))));
            expect(wait.ms).toBeLessThanOrEqual(Math.min(backoff.maxMs, Math.ceil(base)));
          }
        },
      ),
    );
  });
});
