/**
 * The model-based reflector (ReAct reflection on a failed step).
 *
 * @module
 */

import { collectModelText } from "../model/collect-model-text.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { buildReflectionPrompt, reflectionSystemPrompt } from "../planner/build-reflection-prompt.ts";
import type { Reflection, Reflector } from "../planner/reflector.ts";
import { extractJsonObject } from "../shared/extract-json-object.ts";
import { isRecord } from "../shared/is-record.ts";
import { checkOptions, must } from "./check-runtime-options.ts";

/** Options of {@link createModelReflector}. */
export interface ModelReflectorOptions {
  /**
   * The model to ask. Leave it unset to use the runtime's model, which the
   * runtime counts against the run's budget.
   *
   * @defaultValue the model in the reflection request
   */
  model?: PlanModel;
  /**
   * The system prompt.
   *
   * @defaultValue a short instruction to answer with one JSON verdict
   */
  system?: string;
  /**
   * How many characters of each completed result the prompt shows.
   *
   * @defaultValue `500`
   */
  maxResultChars?: number;
}

/**
 * Reads a verdict from the model's answer. Accepts the snake_case field
 * names `adjust_action` and `adjusted_params` too.
 *
 * @param text - the answer.
 * @returns the verdict, or `undefined` when the answer holds none.
 */
function parseReflection(text: string): Reflection | undefined {
  const object = extractJsonObject(text, "action") ?? extractJsonObject(text, "adjust_action");
  if (object === undefined) return undefined;
  const action = object["action"] ?? object["adjust_action"];
  const reason =
    typeof object["reason"] === "string"
      ? object["reason"]
      : typeof object["diagnosis"] === "string"
        ? object["diagnosis"]
        : "";
  if (action === "retry") {
    const changed = object["arguments"] ?? object["adjusted_params"];
    if (isRecord(changed)) {
      return { action, reason, arguments: changed as Record<string, unknown> };
    }
    return { action, reason };
  }
  if (action === "new_plan" || action === "abort") return { action, reason };
  return undefined;
}

/**
 * Creates a ReAct reflector: it shows the model the failed step,
 * its input, the error and the completed results, and reads back `retry`
 * (with changed arguments), `new_plan` or `abort`. An answer it cannot read,
 * or a model error, gives `undefined` (no opinion: the runtime re-plans).
 *
 * @param options - model, system prompt and result length.
 * @returns the reflector.
 * @throws PlankitError `invalid-options` for an unknown option (naming the closest), a model without `stream()`, a `system` that is not a string, or a `maxResultChars` that is not an integer >= 0.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry, model, reflector: createModelReflector() });
 * ```
 */
export function createModelReflector(options: ModelReflectorOptions = {}): Reflector {
  checkOptions(
    options,
    {
      model: must(
        (value) => typeof (value as { stream?: unknown } | null)?.stream === "function",
        "a PlanModel with a stream() method",
      ),
      system: must((value) => typeof value === "string", "a string"),
      maxResultChars: must((value) => Number.isInteger(value) && (value as number) >= 0, "an integer >= 0"),
    },
    "createModelReflector",
    (name) => `createModelReflector option ${name}`,
  );
  const { model, system, maxResultChars = 500 } = options;
  return {
    async reflect(request) {
      const asked = model ?? request.model;
      if (asked === undefined) return undefined;
      try {
        const answer = await collectModelText(
          asked,
          {
            purpose: "reflect",
            system: system ?? reflectionSystemPrompt,
            prompt: buildReflectionPrompt(request, maxResultChars),
            signal: request.signal,
          },
          { what: "Reflection" },
        );
        return parseReflection(answer.text);
      } catch {
        return undefined;
      }
    },
  };
}
