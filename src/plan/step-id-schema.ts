/**
 * The schema of a plan step id.
 *
 * @module
 */
import * as v from "valibot";
import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import {
  ID_EMPTY_MESSAGE,
  ID_PATTERN_MESSAGE,
  ID_RESERVED_MESSAGE,
  ID_TYPE_MESSAGE,
  STEP_ID_PATTERN,
} from "./step-messages.ts";

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
  v.string(ID_TYPE_MESSAGE),
  v.minLength(1, ID_EMPTY_MESSAGE),
  v.regex(STEP_ID_PATTERN, ID_PATTERN_MESSAGE),
  v.check((id) => id !== CONTEXT_REFERENCE_ROOT, ID_RESERVED_MESSAGE),
);
