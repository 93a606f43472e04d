/**
 * The demo unit conversion tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import { convertUnits } from "./convert-units.ts";

/**
 * Creates the `convert_units` tool: converts a value between units of
 * length, mass, temperature, volume, speed, time or area (see
 * {@link convertUnits}). Read-only and idempotent.
 *
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createUnitConversionTool());
 * await registry.call("convert_units", { value: 330, from: "m", to: "ft" }); // { value: 1082.677165, unit: "ft", … }
 * ```
 */
export function createUnitConversionTool(): ToolDefinition {
  return {
    name: "convert_units",
    title: "Unit conversion",
    description:
      "Convert a value between units of length (m, km, mi, ft, in), mass (kg, g, lb, oz), temperature (°C, °F, K), volume (l, ml, gal, cup), speed (km/h, mph, m/s), time (s, min, h, d) or area (m², km², mi², ha, acre).",
    inputSchema: {
      type: "object",
      properties: {
        value: { type: "number", description: "The value to convert" },
        from: { type: "string", minLength: 1, maxLength: 40, description: "The unit of the value, e.g. km" },
        to: { type: "string", minLength: 1, maxLength: 40, description: "The unit to convert to, e.g. mi" },
      },
      required: ["value", "from", "to"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        value: { type: "number" },
        unit: { type: "string" },
        input: { type: "number" },
        inputUnit: { type: "string" },
        dimension: { type: "string" },
        text: { type: "string" },
      },
      required: ["value", "unit", "input", "inputUnit", "dimension", "text"],
    },
    annotations: {
      title: "Unit conversion",
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: ({ value, from, to }) => convertUnits(Number(value), String(from), String(to)),
  };
}
