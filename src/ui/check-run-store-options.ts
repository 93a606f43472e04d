/**
 * Checking the options of `createRunStore`.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";

const isFunction: [(value: unknown) => boolean, string] = [(value) => typeof value === "function", "a function"];

/** Each option's check and what it must be, for the message. */
const checks: Record<string, [(value: unknown) => boolean, string]> = {
  token: [(value) => typeof value === "string", "a string"],
  fetch: isFunction,
  format: [(value) => value === "auto" || value === "sse" || value === "jsonl", '"auto", "sse" or "jsonl"'],
  onApprove: isFunction,
  onStop: isFunction,
  lazy: [(value) => typeof value === "boolean", "true or false"],
  retryMs: [(value) => typeof value === "number" && value >= 0 && value < Infinity, "a finite number >= 0"],
  maxRetries: [
    (value) => value === Infinity || (Number.isInteger(value) && (value as number) >= 0),
    "an integer >= 0 or Infinity",
  ],
  signal: [(value) => typeof (value as AbortSignal | null)?.addEventListener === "function", "an AbortSignal"],
  delay: isFunction,
};

/**
 * Refuses `createRunStore` options a store would misread: a misspelt name,
 * whose default would apply unseen, or a value of the wrong kind (a `NaN`
 * `retryMs` would reconnect at once, endlessly).
 *
 * @param options - the options as given.
 * @throws PlankitError `invalid-options` naming the option, what it must be and the value.
 *
 * @example
 * ```ts
 * checkRunStoreOptions({ retryMs: Number.NaN }); // throws: createRunStore option retryMs must be a finite number >= 0, got NaN
 * ```
 */
export function checkRunStoreOptions(options: object): void {
  for (const [name, value] of Object.entries(options)) {
    const check = Object.hasOwn(checks, name) ? checks[name] : undefined;
    if (check === undefined)
      throw new PlankitError(
        "invalid-options",
        `Unknown createRunStore option ${JSON.stringify(name)}; the options are ${Object.keys(checks).join(", ")}`,
      );
    if (value !== undefined && !check[0](value))
      throw new PlankitError(
        "invalid-options",
        `createRunStore option ${name} must be ${check[1]}, got ${typeof value === "string" ? JSON.stringify(value) : typeof value === "object" ? (JSON.stringify(value) ?? "an object") : String(value)}`,
      );
  }
}
