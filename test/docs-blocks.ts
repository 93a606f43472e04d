/**
 * The TypeScript blocks of README.md and docs/*.md, as `test/docs.node.test.ts` runs them and
 * `test/docs-types.node.test.ts` type-checks them. Two first-line-style markers, kept rare:
 * `// needs: <service>` (the block needs a live service, so it is only syntax-checked, not run) and
 * `// fragment: <what it leaves out>` (the block is deliberately partial, so it is not type-checked).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root, ending in a slash. */
export const root = fileURLToPath(new URL("..", import.meta.url));

/** One TypeScript block of a Markdown page. */
export interface CodeBlock {
  /** The page, relative to the root: `README.md`, `docs/tools.md`. */
  page: string;
  /** The line of the opening fence; the code's first line is the next one. */
  line: number;
  /** The code between the fences. */
  code: string;
  /** The file name the block is written to: `docs-tools-md-line-70.ts`. */
  file: string;
}

/** The Markdown pages whose TypeScript blocks must run: the README and every page in docs/. */
function pages(): string[] {
  const docs = readdirSync(`${root}docs`)
    .filter((name) => name.endsWith(".md"))
    .sort();
  return ["README.md", ...docs.map((name) => `docs/${name}`)];
}

/**
 * Every block of a page in one of the languages, with the line it starts on.
 *
 * @param page - the page, relative to the root.
 * @param languages - the fence's info strings, as a regular expression's alternatives.
 * @param extension - the extension of the file the block is written to.
 * @returns its blocks, in order.
 */
function blocksOf(page: string, languages = "ts|typescript", extension = "ts"): CodeBlock[] {
  const text = readFileSync(`${root}${page}`, "utf8");
  const blocks: CodeBlock[] = [];
  const fence = new RegExp(`^\`\`\`(${languages})[ \\t]*\\n([\\s\\S]*?)^\`\`\`[ \\t]*$`, "gmu");
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index).split("\n").length;
    const file = `${page.replace(/[/.]/gu, "-")}-line-${line}.${extension}`;
    blocks.push({ page, line, code: match[2] ?? "", file });
  }
  return blocks;
}

/**
 * Every TypeScript block of the README and docs/.
 *
 * @returns the blocks, page by page.
 */
export function docBlocks(): CodeBlock[] {
  return pages().flatMap((page) => blocksOf(page));
}

/**
 * Every ```tsx block of the README and docs/: components that need a browser and React, so
 * `test/docs-types.node.test.ts` compiles them and nothing runs them.
 *
 * @returns the blocks, page by page.
 */
export function tsxBlocks(): CodeBlock[] {
  return pages().flatMap((page) => blocksOf(page, "tsx", "tsx"));
}

/** One file of a block that shows several, each under a `// app/page.tsx` comment line. */
export interface BlockFile {
  /** The path the comment names (`app/page.tsx`), or the block's file name when it names none. */
  path: string;
  /** The line of the block's code where the file starts (0 for the first). */
  offset: number;
  code: string;
}

/**
 * Splits a block into the files it shows: a comment line that is only a relative path
 * (`// app/run-view.tsx`) starts the next file; lines before the first such comment belong to it.
 *
 * @param block - a block.
 * @returns its files, in order.
 */
export function filesOf(block: CodeBlock): BlockFile[] {
  const lines = block.code.split("\n");
  const starts = lines.flatMap((text, index) => (/^\/\/ (?:[\w.-]+\/)*[\w.-]+\.tsx?$/u.test(text) ? [index] : []));
  if (starts.length === 0) return [{ path: block.file, offset: 0, code: block.code }];
  return starts.map((start, index) => {
    const from = index === 0 ? 0 : start;
    const to = starts[index + 1] ?? lines.length;
    return { path: (lines[start] ?? "").slice(3), offset: from, code: lines.slice(from, to).join("\n") };
  });
}

/**
 * Whether a block needs a live service (`// needs: …`), so it is syntax-checked but not run.
 *
 * @param block - a block.
 * @returns the check.
 */
export function needsService(block: CodeBlock): boolean {
  return /^\/\/ needs: \S/mu.test(block.code);
}

/**
 * Whether a block is deliberately partial (`// fragment: …`), so it is not type-checked.
 *
 * @param block - a block.
 * @returns the check.
 */
export function isFragment(block: CodeBlock): boolean {
  return /^\/\/ fragment: \S/mu.test(block.code);
}

/**
 * The package's entry points, mapped to the sources, so a block runs against this checkout; a
 * relative import (`./worker/demo/…`) is read from the repository's root, where a reader runs it.
 *
 * @param code - a block's code.
 * @returns the code with its imports pointed at this checkout.
 */
export function withSourceImports(code: string): string {
  return code
    .replace(
      /from "plankit(?:\/([a-z]+))?"/gu,
      (_whole, entry: string | undefined) =>
        `from ${JSON.stringify(pathToFileURL(`${root}src/${entry ?? "index"}.ts`).href)}`,
    )
    .replace(
      /from "\.\/([^"]+)"/gu,
      (_whole, path: string) => `from ${JSON.stringify(pathToFileURL(`${root}${path}`).href)}`,
    );
}

/**
 * What a block promises to print: the `// text` comments after `console.log(…);`, in order.
 *
 * @param code - a block's code.
 * @returns the promised lines.
 */
export function promisedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gmu)].map((match) => (match[1] ?? "").trim());
}

/**
 * What a block printed, line by line, trimmed: to compare with {@link promisedOutput}.
 *
 * @param output - the block's standard output.
 * @returns the lines.
 */
export function printedLines(output: string): string[] {
  return output
    .trim()
    .split("\n")
    .map((line) => line.trim());
}
