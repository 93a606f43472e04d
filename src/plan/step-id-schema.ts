/**
 * The schema of a plan step id.
 *
 * @module
 */
import * as v from "valibot";
import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import { stepMessages as m, STEP_ID_PATTERN } from "./step-messages.ts";

/**
 * A step id: a non-empty string without whitespace, dots, braces or brackets
 * (so that `{{id.path}}` parses unambiguously), and not the reserved
 * {@link CONTEXT_REFERENCE_ROOT}.
 *
 * @example
 * ```ts
 * v.is(StepIdSchema, "s1"); // true
 * v.is(StepIdSchema, "s 1"); // false
 * ```
 */
export const StepIdSchema = v.pipe(
  v.string(m.idType),
  v.minLength(1, m.idEmpty),
  v.regex(STEP_ID_PATTERN, m.idPattern),
  v.check((id) => id !== CONTEXT_REFERENCE_ROOT, m.idReserved),
);
