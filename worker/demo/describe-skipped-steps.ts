/**
 * What the offline demo model says when steps of a plan did not run.
 *
 * @module
 */

/**
 * Reads an integration prompt's `# Results` section for tool steps that
 * were skipped (denied by a person, cut short, or depending on one that
 * was) and says, without inventing anything, that they did not run and
 * why, when the prompt says why — in Chinese when the request is. The offline model writes no other free
 * text, so a prompt without skipped steps gets no answer from here.
 *
 * @param prompt - the integration prompt (`# Request`, `# Results`, `# Task`).
 * @returns the sentence, or `undefined` when no step was skipped.
 *
 * @example
 * ```ts
 * describeSkippedSteps("# Request\nSave a note\n\n# Results\ns1 (save_note) was skipped");
 * // "Not done: step s1 (save_note) was skipped, so it did not run."
 * ```
 */
export function describeSkippedSteps(prompt: string): string | undefined {
  const results = /(?:^|\n)# Results\n([\s\S]*?)(?:\n\n# |\s*$)/u.exec(prompt)?.[1] ?? "";
  const skipped = results
    .split("\n")
    .map((line) => /^(\S+) \(([^()]+)\) was (?:skipped|not done: (.+))$/u.exec(line.trim()))
    .filter((match) => match !== null)
    .map((match) => ({ id: match[1] ?? "", tool: match[2] ?? "", reason: match[3] }));
  if (skipped.length === 0) return undefined;
  const request = /(?:^|\n)# Request\n([\s\S]*?)(?:\n\n# |\s*$)/u.exec(prompt)?.[1] ?? "";
  const explained = skipped.filter((step) => step.reason !== undefined);
  if (/\p{Script=Han}/u.test(request)) {
    if (explained.length > 0)
      return `未完成：${skipped.map((step) => `步骤 ${step.id}（${step.tool}）没有执行${step.reason === undefined ? "" : `（${step.reason}）`}`).join("；")}。`;
    return `未完成：${skipped.map((step) => `步骤 ${step.id}（${step.tool}）`).join("、")}被跳过，没有执行。`;
  }
  if (explained.length > 0)
    return `Not done: ${skipped.map((step) => `step ${step.id} (${step.tool}) did not run${step.reason === undefined ? "" : ` — ${step.reason}`}`).join("; ")}.`;
  const names = skipped.map((step) => `step ${step.id} (${step.tool})`);
  const list = names.length === 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;
  return `Not done: ${list} ${names.length === 1 ? "was skipped, so it" : "were skipped, so they"} did not run.`;
}
