import { createRequire } from "node:module";
import { MinimalPushParser } from "./minimal-push-parser.ts";
import { readPackageVersion } from "./read-package-version.ts";

/** Parses one input: the pre-split chunks, or (for `JSON.parse`) the whole text. */
export type JsonParserRun = (chunks: readonly string[], text: string) => unknown;

/** A parser the JSON benchmark times. */
export interface JsonParserContender {
  /** Stable name, passed to the worker process on its command line. */
  id: string;
  /** Row label in the table. */
  label: string;
  kind: "plankit" | "baseline" | "peer" | "reference";
  /**
   * Imports the parser's module (only the one a worker process needs, so its
   * start-up stays short) and returns the run to time: it returns what the
   * parser produced, for the check against `JSON.parse`. For plankit, `end`
   * feeds the same chunks and returns the value of `end()`.
   */
  load(): Promise<{ run: JsonParserRun; end?: (chunks: readonly string[]) => unknown }>;
}

interface JsonparseParser {
  stack: unknown[];
  onValue: (this: JsonparseParser, value: unknown) => void;
  write(chunk: string): void;
}

async function loadPlankit(
  strict: boolean,
): Promise<{ run: JsonParserRun; end: (chunks: readonly string[]) => unknown }> {
  const { createJsonStreamParser } = await import("../../../src/json.ts");
  const feed = (chunks: readonly string[]): { elements: unknown[]; root: unknown } => {
    const parser = createJsonStreamParser(strict ? { strict: true } : {});
    const elements: unknown[] = [];
    for (const chunk of chunks) {
      for (const element of parser.write(chunk)) elements.push(element);
    }
    return { elements, root: parser.end() };
  };
  return { run: (chunks) => feed(chunks).elements, end: (chunks) => feed(chunks).root };
}

async function* fromChunks(chunks: readonly string[]): AsyncGenerator<string> {
  for (const chunk of chunks) yield chunk;
}

/**
 * The streaming parsers the JSON benchmark compares, and `JSON.parse` on the
 * whole text as the baseline, in table order. A streaming run feeds every
 * chunk and collects the root array's elements as the parser hands them out;
 * jsonriver has no per-element output, so it is driven to its final value.
 * `parsePartialJson`, timed differently, is {@link partialJsonContender}.
 *
 * @example
 * ```ts
 * const { run } = await jsonParserContenders[0]!.load();
 * const elements = run(splitText(text, 4), text);
 * ```
 */
export const jsonParserContenders: readonly JsonParserContender[] = [
  {
    id: "plankit-lenient",
    label: "plankit `createJsonStreamParser()` (lenient, default)",
    kind: "plankit",
    load: () => loadPlankit(false),
  },
  {
    id: "plankit-strict",
    label: "plankit `createJsonStreamParser({ strict: true })`",
    kind: "plankit",
    load: () => loadPlankit(true),
  },
  {
    id: "json-parse",
    label: "`JSON.parse` (whole text at once; not streaming)",
    kind: "baseline",
    load: async () => ({ run: (_chunks, text) => JSON.parse(text) }),
  },
  {
    id: "minimal",
    label: "minimal push parser (reference: nesting and strings only, JSON.parse per element)",
    kind: "reference",
    load: async () => ({
      run: (chunks) => {
        const parser = new MinimalPushParser();
        const elements: unknown[] = [];
        for (const chunk of chunks) for (const element of parser.write(chunk)) elements.push(element);
        return elements;
      },
    }),
  },
  {
    id: "jsonparse",
    label: `jsonparse ${readPackageVersion("jsonparse")}`,
    kind: "peer",
    load: async () => {
      const Jsonparse = createRequire(import.meta.url)("jsonparse") as new () => JsonparseParser;
      return {
        run: (chunks) => {
          const parser = new Jsonparse();
          const elements: unknown[] = [];
          parser.onValue = function onValue(value) {
            // Depth 1: an element of the root array.
            if (this.stack.length === 1) elements.push(value);
          };
          for (const chunk of chunks) parser.write(chunk);
          return elements;
        },
      };
    },
  },
  {
    id: "streamparser-json",
    label: `@streamparser/json ${readPackageVersion("@streamparser/json")} (\`paths: ["$.*"]\`)`,
    kind: "peer",
    load: async () => {
      const { JSONParser } = await import("@streamparser/json");
      return {
        run: (chunks) => {
          const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
          const elements: unknown[] = [];
          parser.onValue = ({ value }) => {
            elements.push(value);
          };
          for (const chunk of chunks) parser.write(chunk);
          // It ends by itself after the root value; end() would then throw.
          if (!parser.isEnded) parser.end();
          return elements;
        },
      };
    },
  },
  {
    id: "jsonriver",
    label: `jsonriver ${readPackageVersion("jsonriver")} (driven to its last value)`,
    kind: "peer",
    load: async () => {
      const { parse } = await import("jsonriver");
      return {
        run: async (chunks) => {
          let last: unknown;
          for await (const value of parse(fromChunks(chunks))) last = value;
          return last;
        },
      };
    },
  },
];
