import { describe, expect, it } from "vitest";
import { boundStream } from "../../../src/model/bound-stream.ts";
import type { PlanModelPart } from "../../../src/model/plan-model.ts";
import { withTimeout } from "../../../src/runtime/run/with-timeout.ts";
import { clampTimerMs } from "../../../src/shared/clamp-timer-ms.ts";
import { systemClock } from "../../../src/shared/runtime-clock.ts";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe("clampTimerMs", () => {
  it("keeps delays inside what timers accept", () => {
    expect([
      clampTimerMs(1e12, 5),
      clampTimerMs(0, 5),
      clampTimerMs(-3, 5),
      clampTimerMs(Number.NaN, 5),
      clampTimerMs("9", 5),
      clampTimerMs(250, 5),
    ]).toEqual([2_147_483_647, 1, 1, 5, 5, 250]);
  });
});

describe("withTimeout", () => {
  it("fails work that ignores its signal with the timeout message, and aborts that signal", async () => {
    let seen: AbortSignal | undefined;
    await expect(
      withTimeout(systemClock, 5, new AbortController().signal, "too slow", (signal) => ((seen = signal), never())),
    ).rejects.toMatchObject({ code: "timeout", message: "too slow" });
    expect(seen?.aborted).toBe(true);
  });

  it("passes the value through, a synchronous throw as a rejection, and the parent's abort", async () => {
    expect(await withTimeout(systemClock, 1000, new AbortController().signal, "x", () => 7)).toBe(7);
    await expect(
      withTimeout(systemClock, 1000, new AbortController().signal, "x", () => {
        throw new Error("sync");
      }),
    ).rejects.toThrow("sync");
    const parent = new AbortController();
    const pending = withTimeout(systemClock, 1000, parent.signal, "x", () => never());
    parent.abort();
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
  });

  it("does not fire at once for a huge limit", async () => {
    const value = await withTimeout(
      systemClock,
      1e12,
      new AbortController().signal,
      "x",
      () => new Promise((resolve) => setTimeout(() => resolve("late"), 20)),
    );
    expect(value).toBe("late");
  });
});

describe("boundStream", () => {
  async function drain(parts: AsyncIterable<PlanModelPart>): Promise<string> {
    let text = "";
    for await (const part of parts) if (part.type === "text") text += part.text;
    return text;
  }

  it("passes parts through and closes a stalled source after idleMs", async () => {
    let closed = false;
    const source: AsyncIterable<PlanModelPart> = {
      [Symbol.asyncIterator]: () => {
        let sent = false;
        return {
          next: () =>
            sent
              ? never()
              : ((sent = true), Promise.resolve({ done: false, value: { type: "text", text: "hi" } as PlanModelPart })),
          return: async () => ((closed = true), { done: true, value: undefined }),
        };
      },
    };
    await expect(
      drain(boundStream(source, { idleMs: 10, totalMs: 1000 }, systemClock, "Reflection", undefined)),
    ).rejects.toMatchObject({
      code: "timeout",
      message: "Reflection timed out: the model sent nothing for 10 ms",
    });
    expect(closed).toBe(true);
  });

  it("ends a trickling source after totalMs, and ends at once when the signal fires", async () => {
    async function* trickle(): AsyncGenerator<PlanModelPart> {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 3));
        yield { type: "text", text: "." };
      }
    }
    await expect(
      drain(boundStream(trickle(), { idleMs: 100, totalMs: 30 }, systemClock, "Integration", undefined)),
    ).rejects.toMatchObject({ message: "Integration timed out: the model call took longer than 30 ms" });
    const controller = new AbortController();
    const pending = drain(
      boundStream(trickle(), { idleMs: 1000, totalMs: 10_000 }, systemClock, "Integration", controller.signal),
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
  });
});
