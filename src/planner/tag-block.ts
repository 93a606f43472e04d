/**
 * The tagged blocks planning prompts are made of.
 *
 * @module
 */

/**
 * Wraps text in a tag block: `<TAG>`, the text, `</TAG>`, one per line.
 *
 * @param tag - the tag name.
 * @param body - the content.
 * @returns the block.
 *
 * @example
 * ```ts
 * tagBlock("USER_QUERY", "hi"); // "<USER_QUERY>\nhi\n</USER_QUERY>"
 * ```
 */
export function tagBlock(tag: string, body: string): string {
  return `<${tag}>\n${body}\n</${tag}>`;
}
