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
 * The answer to decisions the run refused: 400 for edited arguments the
 * tool refuses, 409 for a step that does not wait for a decision.
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
  const base = {
    ok: false as const,
    code: error.code,
    message: error.message,
    ...(stepId === undefined ? {} : { stepId }),
  };
  return error.code === "invalid-argument" ? { ...base, status: 400 } : { ...base, status: 409 };
}
