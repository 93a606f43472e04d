import { readPackageVersion } from "./read-package-version.ts";

/** What one pass of {@link partialJsonContender} did before it finished or hit its deadline. */
export interface PartialJsonPass {
  /** Wall-clock milliseconds of the pass. */
  ms: number;
  /** Calls made, and characters those calls parsed. */
  calls: number;
  parsedChars: number;
  /** The value of the last call; `undefined` when the deadline stopped the pass. */
  last: unknown;
}

/**
 * The AI SDK's way of streaming partial objects, timed apart from the other
 * parsers because its cost grows with the square of the text: every chunk
 * appends to the text and `parsePartialJson` parses all of it again. `load`
 * imports the `ai` package and returns a pass that stops at `deadline` (a
 * `performance.now()` time) so a cell can be cut short and extrapolated.
 *
 * @example
 * ```ts
 * const pass = await partialJsonContender.load();
 * const { ms, last } = await pass(splitText(text, 64), Number.POSITIVE_INFINITY);
 * ```
 */
export const partialJsonContender = {
  id: "ai-parse-partial-json",
  label: `AI SDK ${readPackageVersion("ai")} \`parsePartialJson\` on the accumulated text per chunk`,
  kind: "peer" as const,
  async load(): Promise<(chunks: readonly string[], deadline: number) => Promise<PartialJsonPass>> {
    const { parsePartialJson } = await import("ai");
    return async (chunks, deadline) => {
      let text = "";
      let parsedChars = 0;
      let last: unknown;
      const start = performance.now();
      for (let index = 0; index < chunks.length; index++) {
        if (performance.now() > deadline)
          return { ms: performance.now() - start, calls: index, parsedChars, last: undefined };
        text += chunks[index];
        parsedChars += text.length;
        last = (await parsePartialJson(text)).value;
      }
      return { ms: performance.now() - start, calls: chunks.length, parsedChars, last };
    };
  },
};
