/**
 * The schema and type of the final reply step.
 *
 * @module
 */
import * as v from "valibot";
import { StepIdSchema } from "./step-id-schema.ts";
import { TEXT_EMPTY_MESSAGE, TEXT_TYPE_MESSAGE } from "./step-messages.ts";
import { stepPolicyEntries } from "./step-policy-entries.ts";

/**
 * The step that ends a plan with the answer to the user:
 * `{"id":"s4","type":"reply","text":"21*2+5 = {{s2.value}}"}`.
 *
 * @example
 * ```ts
 * const step = v.parse(ReplyStepSchema, { id: "s4", type: "reply", text: "Done: {{s2}}" });
 * ```
 */
export const ReplyStepSchema = v.object({
  id: StepIdSchema,
  type: v.literal("reply"),
  text: v.pipe(v.string(TEXT_TYPE_MESSAGE), v.minLength(1, TEXT_EMPTY_MESSAGE)),
  ...stepPolicyEntries,
});

/** A reply step, as inferred from {@link ReplyStepSchema}. */
export type ReplyStep = v.InferOutput<typeof ReplyStepSchema>;
