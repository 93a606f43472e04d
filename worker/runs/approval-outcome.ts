/**
 * What a session answers to approval decisions.
 *
 * @module
 */
import { PlankitError } from "../../src/index.ts";

/** What {@link PlanSession.approve} answers: the steps still waiting, or the problem. */
export type ApprovalOutcome =
  | { ok: true; awaitingApproval: string[] }
  | { ok: false; status: 400 | 404 | 409 | 503; code: string; message: string; stepId?: string };

/**
 * The answer to decisions the run refused: 400 `invalid-argument` for
 * edited arguments the tool refuses or that reference a step the step does
 * not depend on (the request is wrong, whatever the run's state), 409 for a
 * step that does not wait for a decision.
 *
 * @param error - what the check threw.
 * @returns the problem.
 *
 * @example
 * ```ts
 * try { run.approve(decisions); } catch (error) { return refusal(error); }
 * ```
 */
export function refusal(error: unknown): ApprovalOutcome {
  if (!PlankitError.isInstance(error)) throw error;
  const stepId = /[Ss]tep "([^"]+)"/u.exec(error.message)?.[1];
  const badEdit = error.code === "invalid-argument" || error.message.startsWith("Edited arguments of step");
  const base = {
    ok: false as const,
    code: badEdit ? "invalid-argument" : error.code,
    message: error.message,
    ...(stepId === undefined ? {} : { stepId }),
  };
  return badEdit ? { ...base, status: 400 } : { ...base, status: 409 };
}
