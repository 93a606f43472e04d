/**
 * The error base class shared by every part of plankit.
 *
 * @module
 */

const marker = Symbol.for("plankit.error");

/**
 * Every error code plankit throws. Expected failures (a plan step that does not
 * validate, a tool that is not in the catalog) are usually returned as values;
 * the same codes appear on the thrown variants.
 */
export type PlankitErrorCode =
  | "json-syntax"
  | "json-depth"
  | "json-token-size"
  | "invalid-step"
  | "unknown-tool"
  | "missing-argument"
  | "invalid-argument"
  | "invalid-output"
  | "invalid-result"
  | "tool-error"
  | "unknown-reference"
  | "forward-reference"
  | "duplicate-id"
  | "too-many-steps"
  | "empty-plan"
  | "no-reply"
  | "cycle"
  | "invalid-catalog"
  | "invalid-options"
  | "invalid-input"
  | "model-error"
  | "timeout"
  | "aborted"
  | "budget-exceeded"
  | "invalid-playbook"
  | "unavailable-skill"
  | "unknown-phase"
  | "invalid-path"
  | "invalid-approval"
  /** A side-effecting step was started by a process that stopped before its outcome was stored; it is not started again. */
  | "outcome-unknown";

/**
 * The base class of every error plankit throws. `code` is a stable string to
 * branch on; `cause` keeps the underlying error.
 *
 * Use {@link PlankitError.isInstance} rather than `instanceof` when two copies
 * of plankit may be loaded (a bundle and a dependency): it checks a
 * `Symbol.for` marker, which is shared across copies.
 *
 * @example
 * ```ts
 * try { parser.write(chunk); }
 * catch (error) { if (PlankitError.isInstance(error) && error.code === "json-syntax") … }
 * ```
 */
export class PlankitError extends Error {
  /** A stable, machine-readable code. */
  readonly code: PlankitErrorCode;
  private readonly [marker] = true;

  /**
   * @param code - the stable error code.
   * @param message - what went wrong, where, and which value.
   * @param options - `cause`: the underlying error, if any.
   */
  constructor(code: PlankitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PlankitError";
    this.code = code;
  }

  /**
   * Whether `value` is a plankit error, from this copy of plankit or another.
   *
   * @param value - anything caught.
   * @returns `true` when `value` carries the plankit error marker.
   */
  static isInstance(value: unknown): value is PlankitError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
