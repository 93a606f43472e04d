/**
 * The schema and type of any canonical plan step.
 *
 * @module
 */
import * as v from "valibot";
import { LlmStepSchema } from "./llm-step-schema.ts";
import { ReplyStepSchema } from "./reply-step-schema.ts";
import { TYPE_MESSAGE } from "./step-messages.ts";
import { ToolStepSchema } from "./tool-step-schema.ts";

/**
 * A canonical plan step: a {@link ToolStepSchema | tool}, {@link LlmStepSchema | llm}
 * or {@link ReplyStepSchema | reply} step, told apart by `type`. Model output
 * in other shapes goes through `normalizeStep` first.
 *
 * @example
 * ```ts
 * const result = v.safeParse(PlanStepSchema, { id: "s1", type: "reply", text: "Hi" });
 * ```
 */
export const PlanStepSchema = v.variant("type", [ToolStepSchema, LlmStepSchema, ReplyStepSchema], TYPE_MESSAGE);

/** A canonical plan step, as inferred from {@link PlanStepSchema}. */
export type PlanStep = v.InferOutput<typeof PlanStepSchema>;

/** The step types. */
export type PlanStepType = PlanStep["type"];
