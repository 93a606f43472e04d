/**
 * The input schema of the guided demo's tools.
 *
 * @module
 */

/**
 * Builds the JSON Schema of a guided demo tool's arguments: the user's
 * `message` and the `inputs` the skill requires (each a property of `inputs`,
 * required). Extra members are refused, so a wrong call fails at the registry.
 *
 * @param inputs - the JSON Schemas of the required inputs, by state path.
 * @returns the schema.
 * @example
 * ```ts
 * guideToolInputSchema({ destination: { type: "string" } });
 * ```
 */
export function guideToolInputSchema(inputs: Record<string, Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      message: { type: "string", maxLength: 2000, description: "The user's message of this turn" },
      inputs: {
        type: "object",
        properties: inputs,
        required: Object.keys(inputs),
        description: "The values the skill requires, by state path",
      },
    },
    required: ["message", "inputs"],
    additionalProperties: false,
  };
}
