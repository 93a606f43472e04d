/**
 * The body of `POST /v1/runs/:id/approvals`.
 *
 * @module
 */
import * as v from "valibot";
import { describeBodyIssue } from "../http/request-body-schema.ts";

const stepId = v.pipe(
  v.string("stepId must be a string"),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/u, "stepId must be 1 to 64 letters, digits, _ or -"),
);

/** An approval, optionally with the step's whole edited arguments. */
const ApproveSchema = v.strictObject(
  {
    stepId,
    approved: v.literal(true, "approved must be true or false"),
    arguments: v.optional(v.record(v.string(), v.unknown(), "arguments must be an object of the tool's arguments")),
  },
  "an approval has only stepId, approved and arguments",
);

/** A denial, with an optional reason and whether to re-plan what is left. */
const DenySchema = v.strictObject(
  {
    stepId,
    approved: v.literal(false, "approved must be true or false"),
    reason: v.optional(
      v.pipe(v.string("reason must be a string"), v.maxLength(500, "reason must be at most 500 characters")),
    ),
    replan: v.optional(v.boolean("replan must be true or false")),
  },
  "a denial has only stepId, approved, reason and replan",
);

/**
 * The schema of a `POST /v1/runs/:id/approvals` body:
 * `{ decisions: [...] }`, 1 to 100 decisions, each
 * `{ stepId, approved: true, arguments? }` or
 * `{ stepId, approved: false, reason?, replan? }` (the runtime's
 * `ApprovalDecision`). Unknown members are refused.
 *
 * @example
 * ```ts
 * const result = v.safeParse(ApprovalsBodySchema, { decisions: [{ stepId: "s2", approved: false, reason: "not now" }] });
 * ```
 */
export const ApprovalsBodySchema = v.strictObject(
  {
    decisions: v.pipe(
      v.array(
        v.variant("approved", [ApproveSchema, DenySchema], "each decision needs approved: true or false"),
        "decisions must be a list of decisions",
      ),
      v.minLength(1, "decisions must list at least one decision"),
      v.maxLength(100, "decisions must list at most 100 decisions"),
    ),
  },
  describeBodyIssue,
);
