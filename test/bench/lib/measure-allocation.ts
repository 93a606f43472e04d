import { GCProfiler, getHeapStatistics } from "node:v8";
import type { BenchTask } from "./time-run.ts";

/**
 * Estimates how many bytes of JavaScript heap one run of a task allocates:
 * the growth of the used heap over the run plus everything the collections
 * during the run freed (read from `v8.GCProfiler`). Buffers outside the heap
 * are not counted.
 *
 * @param task - the work; a returned promise is awaited.
 * @returns the bytes allocated, approximately.
 * @example
 * ```ts
 * const bytes = await measureAllocation(() => JSON.parse(text));
 * ```
 */
export async function measureAllocation(task: BenchTask): Promise<number> {
  globalThis.gc?.();
  const profiler = new GCProfiler();
  profiler.start();
  const before = getHeapStatistics().used_heap_size;
  const result = task();
  if (result instanceof Promise) await result;
  const after = getHeapStatistics().used_heap_size;
  const profile = profiler.stop();
  let freed = 0;
  for (const entry of profile?.statistics ?? []) {
    freed += entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
  }
  return Math.max(0, after - before + freed);
}
