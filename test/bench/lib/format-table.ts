/**
 * Formats a markdown table.
 *
 * @param header - the column titles.
 * @param rows - the cells, one array per row, as many cells as titles.
 * @param align - per column, `"left"` or `"right"`; right by default except the first.
 * @returns the table's lines joined with newlines, without a final newline.
 * @example
 * ```ts
 * formatTable(["parser", "ms"], [["JSON.parse", "1.2"]]);
 * ```
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly ("left" | "right")[],
): string {
  const rule = header.map((_, index) =>
    (align?.[index] ?? (index === 0 ? "left" : "right")) === "right" ? "---:" : "---",
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), `|${rule.join("|")}|`, ...rows.map(line)].join("\n");
}
