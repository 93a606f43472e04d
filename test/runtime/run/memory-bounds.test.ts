import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../../src/runtime/create-memory-store.ts";
import { measureJsonBytes } from "../../../src/runtime/measure-json-bytes.ts";
import { truncateJson } from "../../../src/shared/truncate-json.ts";

describe("bounded renderings and stores", () => {
  it("truncateJson agrees with JSON.stringify and cuts while writing", () => {
    const values: unknown[] = [
      { a: [1, "two", null, true, { b: undefined, c: () => 1 }] },
      [undefined, Number.NaN],
      new Date(0),
      "text",
      12,
    ];
    for (const value of values) {
      const json = typeof value === "string" ? value : (JSON.stringify(value) as string);
      expect(truncateJson(value, 10_000)).toBe(json);
      expect(truncateJson(value, 5)).toBe(
        json.length > 5 ? `${json.slice(0, 5)}… [${json.length - 5} more characters]` : json,
      );
    }
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    expect(truncateJson(cycle, 50)).toBe("[object Object]");
    expect(truncateJson({ n: 1n }, 50)).toBe("[object Object]");
  });

  it("measures bytes in UTF-8 and stops counting past the limit", () => {
    expect(measureJsonBytes({ a: "é" }, 1000)).toBe(new TextEncoder().encode('{"a":"é"}').length);
    expect(measureJsonBytes("x".repeat(10_000), 100)).toBe(101);
  });

  it("the memory store cuts long content and keeps within its byte budget", () => {
    const store = createMemoryStore({ maxBytes: 2_000, maxEntryChars: 200 });
    store.write({ kind: "result", runId: "r0", query: "huge result", content: { blob: "x".repeat(100_000) }, at: 0 });
    const kept = store.entries()[0];
    expect(typeof kept?.content).toBe("string");
    expect(String(kept?.content)).toContain("more characters]");
    for (let index = 1; index <= 50; index++)
      store.write({
        kind: "result",
        runId: `r${index}`,
        query: `query ${index}`,
        content: { n: index, pad: "y".repeat(100) },
        at: index,
      });
    const entries = store.entries();
    const bytes = entries.reduce((sum, entry) => sum + measureJsonBytes(entry, 1e9), 0);
    expect(bytes).toBeLessThanOrEqual(2_000);
    expect(entries.at(-1)?.runId).toBe("r50");
    expect(entries.length).toBeLessThan(51);
  });
});
