import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRunStore } from "../../src/ui/create-run-store.ts";

const noEvents = (async function* () {})();

describe("createRunStore refuses options it would misread", () => {
  it("names a misspelt option and lists the options", () => {
    expect(() => createRunStore(noEvents, { retrysMs: 10 } as never)).toThrow(
      'Unknown createRunStore option "retrysMs"; the options are token, fetch, format, onApprove, onStop, lazy, retryMs, maxRetries, signal, delay',
    );
  });

  const wrong: [string, unknown, string][] = [
    ["retryMs", Number.NaN, "a finite number >= 0, got NaN"],
    ["retryMs", -1, "a finite number >= 0, got -1"],
    ["retryMs", Infinity, "a finite number >= 0, got Infinity"],
    ["retryMs", "1000", 'a finite number >= 0, got "1000"'],
    ["maxRetries", 1.5, "an integer >= 0 or Infinity, got 1.5"],
    ["maxRetries", Number.NaN, "an integer >= 0 or Infinity, got NaN"],
    ["format", "ndjson", '"auto", "sse" or "jsonl", got "ndjson"'],
    ["lazy", "yes", 'true or false, got "yes"'],
    ["token", 42, "a string, got 42"],
    ["fetch", {}, "a function, got {}"],
    ["onApprove", true, "a function, got true"],
    ["signal", {}, "an AbortSignal, got {}"],
  ];
  for (const [name, value, message] of wrong) {
    it(`${name}: ${String(value)}`, () => {
      expect(() => createRunStore("http://127.0.0.1:9/v1/runs/r/events", { [name]: value } as never)).toThrow(
        `createRunStore option ${name} must be ${message}`,
      );
    });
  }

  it("takes every well-formed value, undefined included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            retryMs: fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 1e9, noNaN: true })),
            maxRetries: fc.oneof(fc.constant(undefined), fc.nat(), fc.constant(Infinity)),
            format: fc.constantFrom(undefined, "auto", "sse", "jsonl"),
            lazy: fc.constantFrom(undefined, true, false),
            token: fc.option(fc.string(), { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
        async (options) => {
          const store = createRunStore((async function* () {})(), options as Parameters<typeof createRunStore>[1]);
          store.close();
          await store.done;
        },
      ),
    );
  });
});
