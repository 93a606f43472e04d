/**
 * Findings of playbook validation.
 *
 * @module
 */

/**
 * Stable codes of playbook findings, one per rule:
 *
 * - `invalid-shape` — the playbook does not match `PlaybookSchema` (a wrong type, a misspelt key).
 * - `no-phases` — `phases` is empty.
 * - `duplicate-phase` — two phases share an id.
 * - `state-prefix` — a path starts with `state.`.
 * - `data-group-path` — a path starts with `data.`: data is named by its bare leaf.
 * - `invalid-path` — any other malformed path (empty segment, whitespace, unknown dotted root).
 * - `unknown-field` — a `profile.` / `decisions.` field outside the allow-list.
 * - `gate-without-check` — `gate_field` without `gate_value` or `gate_check`.
 * - `gate-value-without-field` — `gate_value` without `gate_field`.
 * - `missing-condition-path` — a condition leaf without `path` where there is no `gate_field` to default to.
 * - `no-allowed-skills` — a phase with no allow-list, and none on the playbook.
 * - `unknown-skill` — an allow-list or a rule names a skill the registry lacks.
 * - `rule-skill-not-allowed` — a rule's skill is outside the allow-list of a phase it applies to.
 * - `rule-skill-restricted` — a rule's skill is `internal` or `api_call_only`, so the rule could never run it.
 */
export type PlaybookIssueCode =
  | "invalid-shape"
  | "no-phases"
  | "duplicate-phase"
  | "state-prefix"
  | "data-group-path"
  | "invalid-path"
  | "unknown-field"
  | "gate-without-check"
  | "gate-value-without-field"
  | "missing-condition-path"
  | "no-allowed-skills"
  | "unknown-skill"
  | "rule-skill-not-allowed"
  | "rule-skill-restricted";

/**
 * One finding: its code, a JSON pointer into the playbook, and a message that
 * says what is wrong, where and with which value, and how to fix it.
 *
 * @example
 * ```ts
 * const issue: PlaybookIssue = { code: "state-prefix", path: "/phases/0/gate_field", message: '…write "profile.name"…' };
 * ```
 */
export interface PlaybookIssue {
  code: PlaybookIssueCode;
  path: string;
  message: string;
}
