/**
 * Rendering plan issues for a model to read.
 *
 * @module
 */
import type { PlanIssue } from "../plan/plan-issue.ts";

/**
 * Renders issues as a bullet list, one per line: `- [code] message`, with
 * the path appended when the message does not already carry it.
 *
 * @param issues - the issues.
 * @returns the list (empty string for none).
 *
 * @example
 * ```ts
 * renderIssueList([{ code: "unknown-tool", index: 0, path: "/steps/0/name", message: 'Step "s1" uses unknown tool "calc" (/steps/0/name)' }]);
 * // '- [unknown-tool] Step "s1" uses unknown tool "calc" (/steps/0/name)'
 * ```
 */
export function renderIssueList(issues: readonly PlanIssue[]): string {
  return issues
    .map((issue) => {
      const located =
        issue.path === "" || issue.message.includes(`(${issue.path})`)
          ? issue.message
          : `${issue.message} (${issue.path})`;
      return `- [${issue.code}] ${located}`;
    })
    .join("\n");
}
