/**
 * The TypeScript blocks of README.md and docs/*.md, as `test/docs.node.test.ts` runs them and
 * `test/docs-types.node.test.ts` type-checks them. Two first-line-style markers, kept rare:
 * `// needs: <service>` (the block needs a live service, so it is only syntax-checked, not run) and
 * `// fragment: <what it leaves out>` (the block is deliberately partial, so it is not type-checked).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
 * Every ```ts / ```typescript block of a page, with the line it starts on.
 *
 * @param page - the page, relative to the root.
 * @returns its blocks, in order.
 */
function blocksOf(page: string): CodeBlock[] {
  const text = readFileSync(`${root}${page}`, "utf8");
  const blocks: CodeBlock[] = [];
  const fence = /^```(ts|typescript)[ \t]*\n([\s\S]*?)^```[ \t]*$/gmu;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index).split("\n").length;
    const file = `${page.replace(/[/.]/gu, "-")}-line-${line}.ts`;
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
  return pages().flatMap(blocksOf);
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
