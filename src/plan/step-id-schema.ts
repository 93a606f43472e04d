/**
 * The schema of a plan step id.
 *
 * @module
 */
import * as v from "valibot";

/**
 * The root name that references the run context rather than a step:
 * `{{context.user.name}}` reads `user.name` from the context the runtime puts
 * in the results under this key. No step may take this id.
 */
export const CONTEXT_REFERENCE_ROOT = "context";

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
  v.string("a step id must be a string"),
  v.minLength(1, "a step id must not be empty"),
  v.regex(/^[^\s.{}[\]]+$/u, "a step id must not contain whitespace, dots, braces or brackets"),
  v.check((id) => id !== CONTEXT_REFERENCE_ROOT, `"${CONTEXT_REFERENCE_ROOT}" is reserved for run-context references`),
);
