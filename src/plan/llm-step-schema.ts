/**
 * The schema and type of a model (LLM) step.
 *
 * @module
 */
import * as v from "valibot";
import { StepIdSchema } from "./step-id-schema.ts";
import { PROMPT_EMPTY_MESSAGE, PROMPT_TYPE_MESSAGE } from "./step-messages.ts";
import { stepPolicyEntries } from "./step-policy-entries.ts";

/**
 * A step that asks the model a question whose answer later steps use:
 * `{"id":"s3","type":"llm","prompt":"Summarize {{s1}} in Chinese"}`.
 *
 * @example
 * ```ts
 * const step = v.parse(LlmStepSchema, { id: "s3", type: "llm", prompt: "Summarize {{s1}}" });
 * ```
 */
export const LlmStepSchema = v.object({
  id: StepIdSchema,
  type: v.literal("llm"),
  prompt: v.pipe(v.string(PROMPT_TYPE_MESSAGE), v.minLength(1, PROMPT_EMPTY_MESSAGE)),
  ...stepPolicyEntries,
});

/** A model step, as inferred from {@link LlmStepSchema}. */
export type LlmStep = v.InferOutput<typeof LlmStepSchema>;
