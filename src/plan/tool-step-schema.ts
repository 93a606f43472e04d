/**
 * The schema and type of a tool step.
 *
 * @module
 */
import * as v from "valibot";
import { isRecord } from "../shared/is-record.ts";
import { StepIdSchema } from "./step-id-schema.ts";
import { ARGUMENTS_MESSAGE, NAME_EMPTY_MESSAGE, NAME_TYPE_MESSAGE } from "./step-messages.ts";
import { stepPolicyEntries } from "./step-policy-entries.ts";

/**
 * A step that calls a tool from the catalog:
 * `{"id":"s1","type":"tool","name":"calculator","arguments":{"expr":"2+2"}}`.
 * String values anywhere in `arguments` may hold references (`{{s0.value}}`).
 *
 * @example
 * ```ts
 * const step = v.parse(ToolStepSchema, { id: "s1", type: "tool", name: "calculator", arguments: { expr: "2+2" } });
 * ```
 */
export const ToolStepSchema = v.object({
  id: StepIdSchema,
  type: v.literal("tool"),
  name: v.pipe(v.string(NAME_TYPE_MESSAGE), v.minLength(1, NAME_EMPTY_MESSAGE)),
  arguments: v.custom<Record<string, unknown>>((value) => isRecord(value), ARGUMENTS_MESSAGE),
  ...stepPolicyEntries,
});

/** A tool step, as inferred from {@link ToolStepSchema}. */
export type ToolStep = v.InferOutput<typeof ToolStepSchema>;
