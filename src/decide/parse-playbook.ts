/**
 * The throwing variant of playbook validation.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { Playbook } from "./playbook.ts";
import type { SkillCatalog } from "./skill-catalog.ts";
import { type ValidatePlaybookOptions, validatePlaybook } from "./validate-playbook.ts";

/**
 * Validates a playbook (see `validatePlaybook`) and returns it typed, or
 * throws with every issue in the message.
 *
 * @param input - the playbook, typically parsed JSON.
 * @param skills - the skill registry.
 * @param options - the profile / decisions field allow-lists.
 * @returns the playbook.
 * @throws PlankitError `invalid-playbook` listing every issue; `cause` holds the `PlaybookIssue[]`.
 * @example
 * ```ts
 * const playbook = parsePlaybook(JSON.parse(text), skills);
 * ```
 */
export function parsePlaybook(input: unknown, skills: SkillCatalog, options?: ValidatePlaybookOptions): Playbook {
  const issues = validatePlaybook(input, skills, options);
  if (issues.length > 0) {
    const lines = issues.map((issue) => `- [${issue.code}] ${issue.message}`);
    throw new PlankitError(
      "invalid-playbook",
      `The playbook has ${issues.length} ${issues.length === 1 ? "issue" : "issues"}:\n${lines.join("\n")}`,
      {
        cause: issues,
      },
    );
  }
  return input as Playbook;
}
