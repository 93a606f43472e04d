/**
 * The size of a value, measured without building its whole text.
 *
 * @module
 */
import { truncateJson } from "../shared/truncate-json.ts";

const encoder = new TextEncoder();

/**
 * The UTF-8 size of a value's JSON text, measured on at most `limit + 1`
 * characters: any value larger than `limit` bytes gives a number above
 * `limit`, and a huge value is never turned into a huge string.
 *
 * @param value - any value.
 * @param limit - the size that matters.
 * @returns the size in bytes, or a number above `limit`.
 *
 * @example
 * ```ts
 * measureJsonBytes({ a: "é" }, 1000); // 10
 * ```
 */
export function measureJsonBytes(value: unknown, limit: number): number {
  const cap = Math.max(0, Math.floor(limit)) + 1;
  const text = truncateJson(value, cap);
  if (text.length > cap) return limit + 1;
  const bytes = encoder.encode(text).length;
  return bytes;
}
