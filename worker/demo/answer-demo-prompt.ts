/**
 * The offline demo model's answers, chosen by the purpose of each call.
 *
 * @module
 */

import type { PlanStep } from "../../src/index.ts";
import type { PlanModelRequest } from "../../src/model.ts";
import { chooseGuidedAction } from "./choose-guided-action.ts";
import { describeSkippedSteps } from "./describe-skipped-steps.ts";
import { type ListedStep, patchDemoPlan } from "./patch-demo-plan.ts";
import { planDemoRequest } from "./plan-demo-request.ts";
import { writeGuidedReply } from "./write-guided-reply.ts";

/** Every demo tool, for prompts that do not list the tools. */
const allTools = ["kb_lookup", "kb_search", "calculator", "convert_units", "current_time", "slow_lookup", "save_note"];

/**
 * The body of a `<TAG>…</TAG>` block of a planning prompt (the planner's
 * `tagBlock` format: data, not wording).
 *
 * @param prompt - the prompt.
 * @param tag - the tag.
 * @returns the body, or `undefined`.
 */
function readTag(prompt: string, tag: string): string | undefined {
  const start = prompt.indexOf(`<${tag}>\n`);
  if (start === -1) return undefined;
  const end = prompt.indexOf(`\n</${tag}>`, start);
  return end === -1 ? undefined : prompt.slice(start + tag.length + 3, end);
}

/**
 * Parses a JSON list block, or gives an empty list.
 *
 * @param text - the block.
 * @returns the list.
 */
function readList<T>(text: string | undefined): T[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/**
 * Writes steps as a model would: a JSON array, one step per line.
 *
 * @param steps - the steps.
 * @returns the text.
 */
function renderPlan(steps: readonly PlanStep[]): string {
  return `[\n${steps.map((step) => `  ${JSON.stringify(step)}`).join(",\n")}\n]`;
}

/**
 * The context of a planning prompt: the query, the tools listed, the step limit.
 *
 * @param request - the request.
 * @returns what the planning rules need.
 */
function readPlanningContext(request: PlanModelRequest): { query: string; tools: Set<string>; maxSteps: number } {
  const listed = readList<{ name?: unknown }>(readTag(request.prompt, "AVAILABLE_TOOLS"))
    .map((tool) => tool.name)
    .filter((name): name is string => typeof name === "string");
  // The step limit is a number the rules state; without it the planner's default applies.
  const limit = /\bat most (\d+) (?:more )?steps?\b/iu.exec(`${request.system ?? ""}\n${request.prompt}`)?.[1];
  return {
    query: readTag(request.prompt, "USER_QUERY") ?? request.prompt,
    tools: new Set(listed.length > 0 ? listed : allTools),
    maxSteps: limit === undefined ? 6 : Number(limit),
  };
}

/**
 * The chain of thought for sketch mode: the plan in words.
 *
 * @param steps - the plan.
 * @param query - the request.
 * @returns the reasoning.
 */
function describePlan(steps: readonly PlanStep[], query: string): string {
  const lines = [`1. Goal: answer "${query}".`, "2. Steps:"];
  const position = new Map(steps.map((step, index) => [step.id, index + 1]));
  const parallel: number[] = [];
  for (const [index, step] of steps.entries()) {
    const needs = [
      ...new Set(
        [...JSON.stringify(step).matchAll(/\{\{([^\s.{}[\]]+)/gu)]
          .map((match) => position.get(match[1] ?? ""))
          .filter((at) => at !== undefined),
      ),
    ];
    const after =
      needs.length === 0 ? "" : ` It needs the result of step${needs.length === 1 ? "" : "s"} ${needs.join(" and ")}.`;
    if (needs.length === 0 && step.type === "tool") parallel.push(index + 1);
    if (step.type === "tool")
      lines.push(`   - Step ${index + 1}: use ${step.name} with ${JSON.stringify(step.arguments)}.${after}`);
    else if (step.type === "llm") lines.push(`   - Step ${index + 1}: ask the language model: ${step.prompt}${after}`);
    else
      lines.push(
        `   - Step ${index + 1}: reply to the user${steps.length === 1 ? " without any tool" : " with the results and their sources"}.${after}`,
      );
  }
  lines.push(
    parallel.length > 1
      ? `3. Dependencies: steps ${parallel.join(", ")} need nothing else and can run in parallel; the others wait for the results they use.`
      : "3. Dependencies: each step waits only for the results it uses.",
  );
  return lines.join("\n");
}

/**
 * The request understanding asked for by the goal prompt, as JSON.
 *
 * @param query - the request.
 * @returns the JSON text.
 */
function describeGoal(query: string): string {
  const steps = planDemoRequest({ query, tools: new Set(allTools) });
  const tools = [...new Set(steps.flatMap((step) => (step.type === "tool" ? [step.name] : [])))];
  return JSON.stringify({
    objective: query,
    requirements: steps
      .filter((step) => step.type === "tool")
      .map((step) => (step.type === "tool" ? `${step.name}: ${JSON.stringify(step.arguments)}` : "")),
    constraints: ["use only the demo tools", "work offline"],
    metrics: ["every number comes from a tool, with its source"],
    time: null,
    quality: "medium",
    uncertainty: tools.length === 0 ? "high" : "low",
    risks:
      tools.length === 0
        ? ["the offline demo model does not understand this request"]
        : ["the knowledge base may not know the subject"],
    resources: tools,
  });
}

/** The answer to a call whose purpose the model has no rule for: what it can do, no invented text. */
const cannotWrite =
  "The offline demo model cannot write free text; it only plans over the demo tools. " +
  "For anything else, connect a real model: set OPENAI_API_KEY (and OPENAI_BASE_URL for any OpenAI-compatible server) or bind Workers AI as AI, and restart.";

/**
 * Answers a call of the planner, the runtime or the decision engine, by the
 * call's `purpose` — never by the wording of a prompt:
 *
 * - `plan` and `repair` → a plan over the listed tools ({@link planDemoRequest});
 * - `replan` → a patch for what is left ({@link patchDemoPlan});
 * - `reason` → the plan in words; `understand` → the goal as JSON;
 * - `reflect` → `new_plan` (the demo re-plans after any failure);
 * - `decide` and `guided-reply` → the guided conversation's answers;
 * - `integrate` → which steps were skipped and did not run, when some
 *   were ({@link describeSkippedSteps});
 * - otherwise (`integrate` too), `llm-step` or no purpose → a short
 *   statement that the offline model writes no free text, and how to
 *   connect a real model.
 *
 * Plans read the request from the planning prompt's tagged blocks
 * (`USER_QUERY`, `AVAILABLE_TOOLS`, the re-plan step lists).
 *
 * @param request - the purpose, system prompt and prompt.
 * @returns the answer text.
 *
 * @example
 * ```ts
 * answerDemoPrompt({ purpose: "plan", ...buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() }) });
 * // '[\n  {"id":"s1","type":"tool","name":"calculator","arguments":{"expr":"21*2+5"}},\n  {"id":"s2","type":"reply",…}\n]'
 * ```
 */
export function answerDemoPrompt(request: Pick<PlanModelRequest, "purpose" | "system" | "prompt">): string {
  switch (request.purpose) {
    case "plan":
    case "repair":
      return renderPlan(planDemoRequest(readPlanningContext(request)));
    case "replan": {
      const context = readPlanningContext(request);
      return renderPlan(
        patchDemoPlan({
          completed: readList<ListedStep>(readTag(request.prompt, "COMPLETED_STEPS")),
          failed: readList<ListedStep>(readTag(request.prompt, "FAILED_STEPS")),
          remaining: readList<ListedStep>(readTag(request.prompt, "REMAINING_STEPS")),
          tools: context.tools,
          maxSteps: context.maxSteps,
        }),
      );
    }
    case "reason": {
      const context = readPlanningContext(request);
      return describePlan(planDemoRequest(context), context.query);
    }
    case "understand":
      return describeGoal(readTag(request.prompt, "USER_QUERY") ?? request.prompt);
    case "reflect":
      return JSON.stringify({
        action: "new_plan",
        reason: "The offline demo model re-plans what is left after a failed step.",
      });
    case "decide":
      return chooseGuidedAction(request.prompt);
    case "guided-reply":
      return writeGuidedReply(request.prompt);
    case "integrate":
      // Steps that did not run (a person denied one, say) are named; nothing else is written.
      return describeSkippedSteps(request.prompt) ?? cannotWrite;
    default:
      // `llm-step`, no purpose, or one added later.
      return cannotWrite;
  }
}
