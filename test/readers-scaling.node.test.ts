/**
 * Every reader of model text is linear in its input, whatever the chunking:
 * eight times the input may cost at most twelve times the time.
 *
 * Timed, so Node only: workerd does not advance its clock during a
 * synchronous run. Noise on a loaded machine is kept out by timing one text
 * against eight texts of an eighth of its size (the same characters, the
 * same number of chunks), at sizes that take tens of milliseconds, the
 * fastest of five runs each, and by trying three times before failing; a
 * quadratic reader costs ×64 at ×8 input, far above ×12, every time.
 * `SHOW_SCALING=1` prints every measurement.
 */
import { describe, expect, it } from "vitest";
import { createJsonStreamParser } from "../src/json/create-json-stream-parser.ts";
import { createReasoningFilter } from "../src/model/create-reasoning-filter.ts";
import type { PlanModel, PlanModelPart } from "../src/model/plan-model.ts";
import { streamModelText } from "../src/model/stream-model-text.ts";
import { createToolCallReader } from "../src/plan/create-tool-call-reader.ts";
import { extractJsonObject } from "../src/shared/extract-json-object.ts";

/** A reader: consumes the chunks and ends. */
type Reader = (chunks: readonly string[]) => void | Promise<void>;

const readers: Record<string, Reader> = {
  "JSON stream parser (lenient)": (chunks) => {
    const parser = createJsonStreamParser();
    for (const chunk of chunks) parser.write(chunk);
    endQuietly(() => parser.end());
  },
  "JSON stream parser (strict)": (chunks) => {
    const parser = createJsonStreamParser({ strict: true });
    try {
      for (const chunk of chunks) parser.write(chunk);
      parser.end();
    } catch {
      // Most adversarial texts are not JSON; only the time counts.
    }
  },
  "tool-call reader": (chunks) => {
    const reader = createToolCallReader({ parameterNames: () => ["a", "b"] });
    for (const chunk of chunks) reader.write(chunk);
    reader.end();
  },
  "reasoning filter": (chunks) => {
    const filter = createReasoningFilter();
    for (const chunk of chunks) filter.push(chunk);
    filter.end();
  },
  "model-stream reader": async (chunks) => {
    const model: PlanModel = {
      async *stream() {
        for (const text of chunks) yield { type: "text", text } satisfies PlanModelPart;
        yield { type: "finish", reason: "stop" } satisfies PlanModelPart;
      },
    };
    for await (const _text of streamModelText(model, { prompt: "" }, { what: "Planning" }));
  },
};

/** Runs `end()` for its cost; texts without a value make it throw. */
function endQuietly(end: () => unknown): void {
  try {
    end();
  } catch {
    // Only the time counts.
  }
}

/** Adversarial texts of about `size` characters. */
const inputs: Record<string, (size: number) => string> = {
  "leading whitespace": (size) => `${" \n\t".repeat(size / 3)}[{"id":"s1","type":"reply","text":"hi"}]`,
  "prose before the JSON": (size) =>
    `${"Let me think about which tool to use. ".repeat(size / 38)}[{"type":"reply","text":"hi"}]`,
  "prose with stray brackets": (size) => `${'a [b {c (d <e "x: '.repeat(size / 16)}[1]`,
  "a long think block": (size) =>
    `<think>${'maybe [1] or {"a": 2} < > '.repeat(size / 26)}</think>\n[{"type":"reply","text":"hi"}]`,
  "an unterminated string": (size) => `[{"type":"reply","text":"${"word ".repeat(size / 5)}`,
  "an unterminated call": (size) => `get_weather(a="${"word ".repeat(size / 5)}`,
  "many small elements": (size) => `[${'{"type":"reply","text":"x"},'.repeat(size / 28)}{"type":"reply","text":"y"}]`,
  "a long number": (size) => `[${"1".repeat(size)}`,
  "unclosed openers": (size) => "[{".repeat(size / 2),
  "many calls": (size) => 'f(a=1) <tool_call>{"name":"g","arguments":{}}</tool_call> '.repeat(size / 57),
};

/**
 * The inputs worth timing for a reader, when not all: strict JSON stops at the
 * first character that is not JSON, and the filter and the model-stream reader
 * (the filter behind an async iterator) look at leading text only.
 */
const only: Record<string, ReadonlySet<string>> = {
  "JSON stream parser (strict)": new Set([
    "leading whitespace",
    "an unterminated string",
    "many small elements",
    "a long number",
    "unclosed openers",
  ]),
  "reasoning filter": new Set([
    "leading whitespace",
    "prose before the JSON",
    "a long think block",
    "an unterminated string",
  ]),
  "model-stream reader": new Set(["leading whitespace", "prose before the JSON", "a long think block"]),
};

/** Cuts text into chunks of `size` characters. */
function cut(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}

/** Runs the reader over each text in turn; returns the time taken, in ms. */
async function time(reader: Reader, texts: readonly (readonly string[])[]): Promise<number> {
  const start = performance.now();
  for (const chunks of texts) await reader(chunks);
  return performance.now() - start;
}

/** What one comparison measured. */
interface Scaling {
  /** The small size, in characters. */
  size: number;
  /** The fastest time for eight texts of `size` characters, in ms. */
  eightSmall: number;
  /** The fastest time for one text of eight times `size`, in ms. */
  oneLarge: number;
}

/**
 * Times one text of eight times the size against eight texts of the size:
 * the same characters and the same number of chunks, so a linear reader takes
 * about as long for both and only work that grows faster than the input
 * shows. The size doubles until the large text takes `floorMs`; the two are
 * timed in turn, several times, and the fastest of each is kept, so a busy
 * moment of the machine weighs on both alike or on neither.
 */
async function compare(
  reader: Reader,
  input: (size: number) => string,
  chunkSize: number,
  sizes?: { first: number; largest: number },
): Promise<Scaling> {
  const floorMs = 20;
  // Work that grows with the square of the input hides behind the linear work at small sizes (copying
  // the text again on every chunk costs little at 32 K characters): the large text has 256 K characters at
  // least, 64 K in single characters (where the work per chunk is largest, and the chunks most). In single
  // characters it has 128 K at most: a token built from more one-character pieces than about 256 K outgrows
  // V8's young generation, and the collector alone then costs ×12 and more at ×8 (a plain `text += c` loop
  // too); at 256 K a busy machine already crossed that line.
  const largest = sizes?.largest ?? (chunkSize === 1 ? 1 << 17 : 1 << 21);
  let size = sizes?.first ?? (chunkSize === 1 ? 1 << 13 : 1 << 15);
  let large = cut(input(size * 8), chunkSize);
  await time(reader, [large]); // warm-up
  while (Math.min(await time(reader, [large]), await time(reader, [large])) < floorMs && size * 16 <= largest) {
    size *= 2;
    large = cut(input(size * 8), chunkSize);
  }
  const small = Array.from({ length: 8 }, () => cut(input(size), chunkSize));
  let eightSmall = Number.POSITIVE_INFINITY;
  let oneLarge = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    eightSmall = Math.min(eightSmall, await time(reader, small));
    oneLarge = Math.min(oneLarge, await time(reader, [large]));
  }
  return { size, eightSmall, oneLarge };
}

/** ×8 the input for at most ×12 the time: one large text may take 1.5 times as long as eight small ones. */
const allowed = 12 / 8;

/** The measurement, for a message. */
function describeScaling({ size, eightSmall, oneLarge }: Scaling): string {
  const factor = (8 * oneLarge) / eightSmall;
  return `${size} characters took ${(eightSmall / 8).toFixed(2)} ms, ${8 * size} took ${oneLarge.toFixed(1)} ms (×${factor.toFixed(1)})`;
}

describe("readers of model text are linear in their input", () => {
  for (const [readerName, reader] of Object.entries(readers)) {
    for (const [inputName, input] of Object.entries(inputs)) {
      if (!(only[readerName]?.has(inputName) ?? true)) continue;
      it(`${readerName}: ${inputName}`, async () => {
        for (const chunkSize of [1, 16, 4096]) {
          let scaling = await compare(reader, input, chunkSize);
          if (process.env["SHOW_SCALING"])
            console.log(`${readerName} | ${inputName} | ${chunkSize}: ${describeScaling(scaling)}`);
          // Twice more before failing: a slow moment of a busy machine is not a quadratic reader, which is slow every time.
          for (let attempt = 0; attempt < 2 && scaling.oneLarge / scaling.eightSmall > allowed; attempt++)
            scaling = await compare(reader, input, chunkSize);
          expect(
            scaling.oneLarge / scaling.eightSmall,
            `${inputName} in ${chunkSize}-character chunks: ${describeScaling(scaling)}`,
          ).toBeLessThanOrEqual(allowed);
        }
      }, 120_000);
    }
  }
});

describe("extractJsonObject is linear in its text", () => {
  // It reads the first 100 000 characters only: the large text stays within them.
  const texts: Record<string, (size: number) => string> = {
    "nested braces that never parse": (size) => `${"{".repeat(size / 2)}${"}".repeat(size / 2)}`,
    "braces in prose, then the object": (size) => `${"a {b} ".repeat(size / 6)}{"action":"retry"}`,
    "an unclosed object": (size) => `{"reason": "${"x".repeat(size)}`,
  };
  for (const [name, input] of Object.entries(texts)) {
    it(name, async () => {
      const read: Reader = (chunks) => void extractJsonObject(chunks.join(""), "action");
      let scaling = await compare(read, input, 1 << 20, { first: 1 << 10, largest: 100_000 });
      for (let attempt = 0; attempt < 2 && scaling.oneLarge / scaling.eightSmall > allowed; attempt++) {
        scaling = await compare(read, input, 1 << 20, { first: 1 << 10, largest: 100_000 });
      }
      expect(scaling.oneLarge / scaling.eightSmall, describeScaling(scaling)).toBeLessThanOrEqual(allowed);
    }, 60_000);
  }
});
