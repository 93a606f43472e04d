/**
 * A stand-in for the Workflows engine, for tests of durable runs.
 *
 * @module
 */
import type { RuntimeEvent } from "../../src/index.ts";
import type { DurableStep, DurableStepConfig, DurableWaitOptions } from "../../worker/runs/durable-step.ts";

/** The engine's error when a wait's time is up. */
class WaitTimeoutError extends Error {
  override name = "WorkflowTimeoutError";
}

/**
 * A stand-in for the Workflows engine: stores each step's outcome and each
 * wait's event (or timeout) by name and occurrence, retries per config,
 * queues events sent before a wait, and can "crash".
 */
export class FakeEngine {
  readonly stored = new Map<string, { ok: true; value: unknown } | { ok: false; error: unknown }>();
  readonly calls: { name: string; config: DurableStepConfig }[] = [];
  readonly waits: { name: string; options: DurableWaitOptions }[] = [];
  running = 0;
  maxRunning = 0;
  /** Once this many steps were stored, every later step.do never settles, as if the process died. */
  crashAfter = Number.POSITIVE_INFINITY;
  /** A step whose callback finishes while this holds for its name is not stored: the process dies there. */
  crashOn: ((name: string) => boolean) | undefined;
  /** Events sent while no wait was open. */
  readonly #queue: unknown[] = [];
  /** The open wait of the current execution. */
  #waiter: { key: string; resolve: (payload: unknown) => void; reject: (error: unknown) => void } | undefined;
  #generation = 0;

  /** Sends an event: to the open wait, or to the queue. */
  send(payload: unknown): void {
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#queue.push(payload);
      return;
    }
    this.#waiter = undefined;
    this.stored.set(waiter.key, { ok: true, value: payload });
    waiter.resolve(payload);
  }

  /** Ends the open wait with a timeout. */
  timeOut(): void {
    const waiter = this.#waiter;
    if (waiter === undefined) throw new Error("no wait is open");
    this.#waiter = undefined;
    const error = new WaitTimeoutError("Execution timed out after 5000ms");
    this.stored.set(waiter.key, { ok: false, error });
    waiter.reject(error);
  }

  /** Whether the current execution waits for an event. */
  get waiting(): boolean {
    return this.#waiter !== undefined;
  }

  /** The `step` of one execution (occurrence counts start over, as after a restart; the last execution's open wait is dropped). */
  execution(): DurableStep {
    const counts = new Map<string, number>();
    const hang = new Promise<never>(() => undefined);
    const generation = ++this.#generation;
    this.#waiter = undefined;
    const occurrence = (name: string): string => {
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      return `${name}/${count}`;
    };
    return {
      waitForEvent: async (name: string, options: DurableWaitOptions): Promise<unknown> => {
        const key = `wait:${occurrence(name)}`;
        const hit = this.stored.get(key);
        if (hit !== undefined) {
          if (hit.ok) return hit.value;
          throw hit.error;
        }
        if (generation !== this.#generation) return hang;
        this.waits.push({ name, options });
        if (this.#queue.length > 0) {
          const payload = this.#queue.shift();
          this.stored.set(key, { ok: true, value: payload });
          return payload;
        }
        return new Promise((resolve, reject) => {
          this.#waiter = { key, resolve, reject };
        });
      },
      do: async <T>(
        name: string,
        config: DurableStepConfig,
        callback: (context: { attempt: number }) => Promise<T>,
      ): Promise<T> => {
        const key = occurrence(name);
        const hit = this.stored.get(key);
        if (hit !== undefined) {
          if (hit.ok) return hit.value as T;
          throw hit.error;
        }
        if (this.stored.size >= this.crashAfter || generation !== this.#generation) return hang;
        this.calls.push({ name, config });
        for (let attempt = 1; ; attempt++) {
          this.running++;
          this.maxRunning = Math.max(this.maxRunning, this.running);
          try {
            const value = await callback({ attempt });
            if (this.crashOn?.(name) === true) this.crashAfter = this.stored.size;
            if (this.stored.size >= this.crashAfter) return hang;
            this.stored.set(key, { ok: true, value });
            return value;
          } catch (error) {
            if (attempt > (config.retries?.limit ?? 0)) {
              this.stored.set(key, { ok: false, error });
              throw error;
            }
          } finally {
            this.running--;
          }
        }
      },
    };
  }
}

/** Resolves once `check` holds (polling), or fails after two seconds. */
export async function until(check: () => boolean): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 2000) throw new Error("not reached within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The run's logged runtime events, read through the session's SSE endpoint. */
export async function loggedEvents(
  session: { fetch(url: string): Promise<Response> },
  runId: string,
): Promise<RuntimeEvent[]> {
  const response = await session.fetch(`https://plan-session/events?run=${runId}`);
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("id: "))
    .map((block) => JSON.parse(block.split("\n")[2]?.slice(6) ?? "null") as RuntimeEvent & { type: string })
    .filter((event) => event.type !== ("model" as string));
}
