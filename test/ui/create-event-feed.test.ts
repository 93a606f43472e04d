import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replay } from "../../src/events/replay.ts";
import { createEventFeed } from "../../src/ui/create-event-feed.ts";
import { createRunStore } from "../../src/ui/create-run-store.ts";
import { runEvents } from "./run-event-arbitrary.ts";

/** Reads a feed to its end. */
async function readAll<T>(feed: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const value of feed) read.push(value);
  return read;
}

describe("createEventFeed", () => {
  it("gives every reader every value in order, whenever it starts reading", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 30 }),
        fc.array(fc.nat(30), { minLength: 1, maxLength: 4 }),
        async (values, starts) => {
          const feed = createEventFeed<number>();
          const readers: Promise<number[]>[] = [];
          for (let index = 0; index <= values.length; index++) {
            for (const start of starts) if (Math.min(start, values.length) === index) readers.push(readAll(feed));
            if (index < values.length) feed.push(values[index] as number);
            // Readers waiting for a value wake up between pushes too.
            if (index % 3 === 0) await Promise.resolve();
          }
          feed.end();
          for (const read of await Promise.all(readers)) expect(read).toEqual(values);
          expect(feed.events).toEqual(values);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("feeds a run store whose snapshot is replay(events), pushed one by one as they arrive", async () => {
    await fc.assert(
      fc.asyncProperty(runEvents, async (events) => {
        const feed = createEventFeed();
        const store = createRunStore(feed);
        for (const event of events) {
          feed.push(event);
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        feed.end();
        expect(await store.done).toEqual(replay(events));
        expect(store.events).toEqual(events);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses an event after its end, saying how many it took and what came", async () => {
    const feed = createEventFeed();
    feed.end();
    feed.end();
    expect(feed.ended).toBe(true);
    expect(() => feed.push({ type: "run-start", runId: "r", t: 0, query: "q" } as never)).toThrow(
      'The event feed ended after 0 events; it takes no more (got "run-start")',
    );
    expect(await readAll(feed)).toEqual([]);
  });
});
