/**
 * The e2e fixture Worker's counter of `count_call` (a slow test-only tool),
 * and the check that a run stopped when its client left.
 *
 * @module
 */
import { expect } from "vitest";

/** How many `count_call` calls started, finished and were aborted in the Worker's isolate. */
export interface CallCounts {
  started: number;
  finished: number;
  aborted: number;
}

/**
 * Reads the counts.
 *
 * @param baseUrl - the Worker's address.
 * @returns the counts.
 */
export async function countCalls(baseUrl: string): Promise<CallCounts> {
  return (await (await fetch(`${baseUrl}/e2e/calls`)).json()) as CallCounts;
}

/**
 * Waits until a condition holds, polling every 50 ms.
 *
 * @param condition - the check.
 * @param timeoutMs - how long to wait at most.
 * @throws Error when the time is up.
 */
export async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * Resolves after `ms` milliseconds.
 *
 * @param ms - the wait.
 * @returns when it passed.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks that a run whose client left stopped its tools: the Worker learns it
 * from a failed write (a heartbeat, or the end of the running call), so at
 * most that call finishes, the next one is aborted and none starts after.
 *
 * @param baseUrl - the Worker's address.
 * @param before - the counts before the request.
 */
export async function expectStoppedAfterLeaving(baseUrl: string, before: CallCounts): Promise<void> {
  await until(async () => (await countCalls(baseUrl)).aborted > before.aborted, 10_000);
  await sleep(3000);
  const after = await countCalls(baseUrl);
  expect(after.finished - before.finished).toBeLessThanOrEqual(1);
  expect(after.aborted - before.aborted).toBe(1);
  expect(after.started - before.started).toBe(after.finished - before.finished + 1);
}
