/**
 * Strategy 6: the model chooses, and must say why.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import { collectModelText } from "../../model/collect-model-text.ts";
import { abortError } from "../../shared/abort-error.ts";
import { extractJsonObject } from "../../shared/extract-json-object.ts";
import { buildPlannerPrompt } from "../build-planner-prompt.ts";
import type { DecisionStrategy, StrategyOutcome } from "../decision-strategy.ts";
import { explainUnavailableSkill } from "../explain-unavailable-skill.ts";

const maxDetailLength = 2_000;

/**
 * `llm_planner`: the only strategy that calls the model. It streams an answer
 * to `model.stream({ system, prompt, signal })`, takes the first JSON object
 * `{ action, skill?, reason }` out of the text (prose and code fences around
 * it are fine) and accepts it only when `action` is `call_skill` with an
 * available skill, or `respond`, and `reason` is a non-empty string.
 *
 * An answer that fails those checks does not throw: the strategy passes, its
 * trace entry says what was wrong and carries the raw answer, and the chain
 * falls back to `no_available_skills` — one bad answer should not break a
 * conversation. A model that throws, by contrast, is an infrastructure
 * failure and is rethrown.
 *
 * @throws PlankitError `model-error` when the model stream throws; `aborted` when the signal fires.
 * @example
 * ```ts
 * const decision = await decide({ state, playbook, skills, model });
 * if (decision.strategy === "llm_planner") console.log(decision.reason); // the model's reason
 * ```
 */
export const llmPlannerStrategy: DecisionStrategy = {
  name: "llm_planner",
  async run(context): Promise<StrategyOutcome> {
    const { model, signal, available } = context;
    if (model === undefined) return { hit: false, reason: "no model was given" };
    if (available.length === 0) return { hit: false, reason: "no skill is available to choose from" };
    const { system, prompt } = buildPlannerPrompt(context);
    let text: string;
    try {
      ({ text } = await collectModelText(
        model,
        signal === undefined ? { purpose: "decide", system, prompt } : { purpose: "decide", system, prompt, signal },
        { what: "Choosing a skill" },
      ));
    } catch (error) {
      if (signal?.aborted) throw abortError(signal, "Choosing a skill");
      // The reader wraps what the model threw as model-error; the message names the phase instead, the cause keeps the original.
      if (PlankitError.isInstance(error) && error.code === "model-error") {
        throw new PlankitError(
          "model-error",
          `The model failed while choosing a skill in phase "${context.phase.id}"`,
          { cause: error.cause ?? error },
        );
      }
      throw error;
    }
    if (signal?.aborted) throw abortError(signal, "Choosing a skill");
    const detail = text.length > maxDetailLength ? `${text.slice(0, maxDetailLength)}…` : text;
    const answer = extractJsonObject(text, "action");
    if (answer === undefined) return { hit: false, reason: "the model's answer holds no JSON object", detail };
    const { action, skill, reason } = answer;
    if (typeof reason !== "string" || reason.trim() === "") {
      return { hit: false, reason: 'the model gave no "reason"', detail };
    }
    if (action === "respond") return { hit: true, action: "respond", reason: `model: ${reason.trim()}`, detail };
    if (action !== "call_skill") {
      return {
        hit: false,
        reason: `the model answered action ${JSON.stringify(action)}; expected "call_skill" or "respond"`,
        detail,
      };
    }
    if (typeof skill !== "string")
      return { hit: false, reason: 'the model chose "call_skill" without a "skill" name', detail };
    if (!available.some((item) => item.name === skill)) {
      const why = explainUnavailableSkill(context, skill) ?? "not available";
      return {
        hit: false,
        reason: `the model chose "${skill}", which is not available (${why}; available: ${available.map((item) => item.name).join(", ")})`,
        detail,
      };
    }
    return { hit: true, action: "call_skill", skill, reason: `model: ${reason.trim()}`, detail };
  },
};
