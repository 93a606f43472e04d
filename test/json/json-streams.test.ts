import { describe, expect, it } from "vitest";
import { JsonElementStream } from "../../src/json/json-element-stream.ts";
import { JsonStreamError } from "../../src/json/json-stream-error.ts";
import { parseJsonStream } from "../../src/json/parse-json-stream.ts";

const text = '```json\n[{"id":"s1"}, 2, "three", [4]]\n```';

async function* pieces(source: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < source.length; i += size) yield source.slice(i, i + size);
}

function readable(source: string, size: number): ReadableStream<string> {
  let i = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (i >= source.length) controller.close();
      else {
        controller.enqueue(source.slice(i, i + size));
        i += size;
      }
    },
  });
}

async function collect(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function collectStream(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe("parseJsonStream", () => {
  it("yields the elements from an async iterable of strings", async () => {
    expect(await collect(parseJsonStream(pieces(text, 3)))).toStrictEqual([{ id: "s1" }, 2, "three", [4]]);
  });

  it("yields the elements from a ReadableStream of strings", async () => {
    expect(await collect(parseJsonStream(readable(text, 5)))).toStrictEqual([{ id: "s1" }, 2, "three", [4]]);
  });

  it("yields an element before the source has produced the rest of the text", async () => {
    let produced = 0;
    async function* slow(): AsyncGenerator<string> {
      for (const piece of ['[{"id":"s1"}', ', {"id":"s2"}', "]"]) {
        produced++;
        yield piece;
      }
    }
    const iterator = parseJsonStream(slow())[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toStrictEqual({ id: "s1" });
    expect(produced).toBe(1);
    expect((await iterator.next()).value).toStrictEqual({ id: "s2" });
    expect(produced).toBe(2);
    expect((await iterator.next()).done).toBe(true);
  });

  it("rejects an invalid text in strict mode with the typed error", async () => {
    await expect(collect(parseJsonStream(pieces("[1, oops]", 2), { strict: true }))).rejects.toBeInstanceOf(
      JsonStreamError,
    );
  });

  it("rejects a text with no JSON value", async () => {
    await expect(collect(parseJsonStream(pieces("no json here", 4)))).rejects.toMatchObject({ code: "json-syntax" });
  });

  it("cancels a ReadableStream source when the loop ends early", async () => {
    let cancelled = false;
    let i = 0;
    const source = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue(i++ === 0 ? "[1, 2, " : "3, ");
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const element of parseJsonStream(source)) {
      expect(element).toBe(1);
      break;
    }
    expect(cancelled).toBe(true);
    expect(source.locked).toBe(false);
  });
});

describe("JsonElementStream", () => {
  it("transforms text chunks into completed elements", async () => {
    expect(await collectStream(readable(text, 2).pipeThrough(new JsonElementStream()))).toStrictEqual([
      { id: "s1" },
      2,
      "three",
      [4],
    ]);
  });

  it("errors the stream on an invalid strict text", async () => {
    const stream = readable("[1,,2]", 1).pipeThrough(new JsonElementStream({ strict: true }));
    await expect(collectStream(stream)).rejects.toMatchObject({ code: "json-syntax", offset: 3 });
  });

  it("closes a truncated lenient text without emitting its half-written element", async () => {
    const stream = readable('[{"id":"s1"}, {"id":"s2", "te', 4).pipeThrough(new JsonElementStream());
    expect(await collectStream(stream)).toStrictEqual([{ id: "s1" }]);
  });
});
