/**
 * The reserved root of run-context references.
 *
 * @module
 */

/**
 * The root name that references the run context rather than a step:
 * `{{context.user.name}}` reads `user.name` from the context the runtime puts
 * in the results under this key. No step may take this id.
 */
export const CONTEXT_REFERENCE_ROOT = "context";
