/**
 * Refusing option names that name no option.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { closestName } from "./closest-name.ts";
import { describeValue } from "./describe-value.ts";

/**
 * Refuses an options object with a key that names no option: a misspelled
 * option (`maxReplan` for `maxReplans`) would otherwise be ignored unseen,
 * and its default would apply instead.
 *
 * @param options - the options object.
 * @param known - the option names.
 * @param what - whose options they are, for the message (`AgentRuntime`).
 * @throws PlankitError `invalid-options` naming the key and the closest option, or listing them all; also for options that are not an object.
 *
 * @example
 * ```ts
 * checkOptionKeys({ maxReplan: 3 }, ["maxReplans"], "AgentRuntime"); // throws: Unknown AgentRuntime option "maxReplan"; did you mean "maxReplans"?
 * ```
 */
export function checkOptionKeys(options: unknown, known: readonly string[], what: string): void {
  if (typeof options !== "object" || options === null)
    throw new PlankitError("invalid-options", `The ${what} options must be an object, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    throw new PlankitError(
      "invalid-options",
      `Unknown ${what} option ${JSON.stringify(key)}; ${suggestion === undefined ? `the options are ${known.join(", ")}` : `did you mean "${suggestion}"?`}`,
    );
  }
}
