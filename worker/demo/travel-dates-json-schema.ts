/**
 * The JSON Schema of travel dates.
 *
 * @module
 */

/**
 * The JSON Schema of travel dates: `{ from, to? }`, ISO dates or dates
 * with a month name.
 *
 * @example
 * ```ts
 * guideToolInputSchema({ dates: travelDatesJsonSchema });
 * ```
 */
export const travelDatesJsonSchema: Record<string, unknown> = {
  type: "object",
  properties: { from: { type: "string", minLength: 1 }, to: { type: "string", minLength: 1 } },
  required: ["from"],
  additionalProperties: false,
};
