/**
 * The offline demo model's answers, one function of the request.
 *
 * @module
 */
import type { PlanModelRequest, PlanStep } from "../../src/index.ts";
import { answerGuidePrompt } from "./answer-guide-prompt.ts";
import { patchDemoPlan, type ListedStep } from "./patch-demo-plan.ts";
import { planDemoRequest } from "./plan-demo-request.ts";
import { describeStepResult } from "./describe-step-result.ts";

/** Every demo tool, for prompts that do not list the tools. */
const allTools = ["kb_lookup", "kb_search", "calculator", "convert_units", "current_time", "slow_lookup", "save_note"];

/**
 * The body of a `<TAG>…</TAG>` block of a planning prompt.
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
 * The body of a `# Heading` section of a runtime prompt.
 *
 * @param prompt - the prompt.
 * @param heading - the heading, without `# `.
 * @returns the body, trimmed, or `undefined`.
 */
function readSection(prompt: string, heading: string): string | undefined {
  for (const block of `\n\n${prompt}`.split("\n\n# ")) {
    if (block.startsWith(`${heading}\n`)) return block.slice(heading.length + 1).trim();
  }
  return undefined;
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
  const limit = /Use at most (\d+) (?:more )?steps?/u.exec(`${request.system ?? ""}\n${request.prompt}`)?.[1];
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
    const needs = [...new Set([...JSON.stringify(step).matchAll(/\{\{([^\s.{}[\]]+)/gu)].map((match) => position.get(match[1] ?? "")).filter((at) => at !== undefined))];
    const after = needs.length === 0 ? "" : ` It needs the result of step${needs.length === 1 ? "" : "s"} ${needs.join(" and ")}.`;
    if (needs.length === 0 && step.type === "tool") parallel.push(index + 1);
    if (step.type === "tool") lines.push(`   - Step ${index + 1}: use ${step.name} with ${JSON.stringify(step.arguments)}.${after}`);
    else if (step.type === "llm") lines.push(`   - Step ${index + 1}: ask the language model: ${step.prompt}${after}`);
    else lines.push(`   - Step ${index + 1}: reply to the user with the results and their sources.${after}`);
  }
  lines.push(
    parallel.length > 1
      ? `3. Dependencies: steps ${parallel.join(", ")} need nothing else and can run in parallel; the others wait for the results they use.`
      : "3. Dependencies: each step waits only for the results it uses.",
    "4. Tools: only the tools listed in AVAILABLE_TOOLS, with arguments that follow their schemas.",
    "5. Inputs and outputs: lookups give a value, a unit, a sentence and a source; the reply quotes them.",
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
    requirements: steps.filter((step) => step.type !== "reply").map((step) => (step.type === "tool" ? `${step.name}: ${JSON.stringify(step.arguments)}` : "a written answer")),
    constraints: ["use only the demo tools", "work offline"],
    metrics: ["every number comes from a tool, with its source"],
    time: null,
    quality: "medium",
    uncertainty: tools.length === 0 ? "high" : "low",
    risks: ["the knowledge base may not know the subject"],
    resources: tools,
  });
}

/**
 * The reflection verdict on a failed step, as JSON.
 *
 * @param prompt - the reflection prompt.
 * @returns the JSON text.
 */
function reflect(prompt: string): string {
  let step: { name?: string; arguments?: Record<string, unknown> } = {};
  try {
    step = JSON.parse(readSection(prompt, "Failed step") ?? "{}") as typeof step;
  } catch {
    step = {};
  }
  const error = /^# Error after \d+ attempt\(s\)\n(.*)$/mu.exec(prompt)?.[1] ?? "";
  if (step.name === "slow_lookup" && /^timeout:/u.test(error)) {
    return JSON.stringify({ action: "retry", arguments: { delayMs: 200 }, reason: "The archive lookup timed out; a faster lookup should fit the time limit." });
  }
  return JSON.stringify({ action: "new_plan", reason: `${step.name ?? "The step"} cannot succeed as planned (${error || "unknown error"}); re-plan what is left.` });
}

/**
 * The text a result line of the integration prompt stands for.
 *
 * @param payload - the result's JSON text (maybe cut short).
 * @returns a sentence.
 */
function resultText(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record["text"] === "string") return record["text"];
    if (typeof record["local"] === "string") return `It is ${record["local"]} (${String(record["timeZone"])}).`;
    if ("expr" in record && "value" in record) return `${String(record["expr"])} = ${String(record["value"])}.`;
    if (Array.isArray(record["results"])) {
      const first = record["results"][0] as Record<string, unknown> | undefined;
      return typeof first?.["text"] === "string" ? first["text"] : "The search found nothing.";
    }
    if (typeof record["title"] === "string") return `Saved the note "${record["title"]}".`;
  }
  return JSON.stringify(value);
}

/**
 * The final answer from the integration prompt's results.
 *
 * @param prompt - the integration prompt.
 * @returns the answer.
 */
function integrate(prompt: string): string {
  const lines = (readSection(prompt, "Results") ?? "").split("\n");
  const parts: string[] = [];
  for (const line of lines) {
    const done = /^(\S+) \(([^)]*)\): (.*)$/u.exec(line);
    if (done !== null) {
      parts.push(resultText(done[3] ?? ""));
      continue;
    }
    const failed = /^(\S+) \(([^)]*)\) failed: (.*)$/u.exec(line);
    if (failed !== null) parts.push(`I could not complete step ${failed[1]} (${failed[2]}): ${failed[3]}.`);
  }
  return parts.length === 0 ? "No step produced a result, so I have no answer." : parts.join(" ");
}

/**
 * The first number with its unit in a text, for the writing answers.
 *
 * @param text - the facts.
 * @returns e.g. `"3,776 m"`, or `undefined`.
 */
function firstQuantity(text: string): string | undefined {
  return /(\d[\d,.]*\s*(?:m|km|km²|°C|m\/s|inhabitants))(?![\p{L}])/u.exec(text)?.[1];
}

/**
 * The answer to a free prompt: an `llm` step of a demo plan, or anything else.
 *
 * @param prompt - the prompt.
 * @returns the answer.
 */
function write(prompt: string): string {
  const question = /^Answer the question "([\s\S]*)" using only these facts from the knowledge base, and name the source: ([\s\S]*)$/u.exec(prompt);
  if (question !== null) {
    const facts = readList<{ text?: unknown; source?: unknown }>(question[2]);
    const [first, second] = facts;
    if (first === undefined) return `The knowledge base has no fact that answers "${question[1]}". Try a city's population, a landmark's height or a distance.`;
    const related = second === undefined ? "" : ` Related: ${String(second.text)}`;
    return `From the knowledge base: ${String(first.text).replace(/\.$/u, "")} (source: ${String(first.source)}).${related}`;
  }
  const writing = /^Write (.+?) for the user about these facts: ([\s\S]*)$/u.exec(prompt);
  if (writing !== null) {
    const kind = writing[1] ?? "";
    const facts = (writing[2] ?? "").trim();
    const sentences = facts.split(/(?<=[.!?])\s+/u).filter((sentence) => sentence !== "");
    const subject = /^(?:The\s+)?((?:[A-Z][\p{L}'-]*\s?)+)/u.exec(facts)?.[1]?.trim() ?? "The subject";
    const quantity = firstQuantity(facts) ?? "one number";
    if (kind.includes("haiku")) return `${subject} stands still —\n${quantity}, written down;\nthe number holds true.`;
    if (kind.includes("poem")) return `Of ${subject} the records say\n${quantity}, no more, no less;\nthe figures do not drift away —\nthey wait for us to guess.`;
    if (kind.includes("summary")) {
      return sentences.length <= 1 ? `In short: ${facts}` : `In short: ${sentences[0] ?? ""} ${sentences.slice(1).join(" ")}`.trim();
    }
    if (kind.includes("explanation")) return `What the figures say: ${facts} These numbers come straight from the knowledge base, with the year they refer to.`;
    return `${facts}`;
  }
  const quoted = prompt.trim().replace(/\s+/gu, " ");
  return `I am the offline demo model, so I can only restate what I was given: ${quoted.length > 300 ? `${quoted.slice(0, 300)}…` : quoted}`;
}

/**
 * Answers any request the planner or the runtime sends the offline demo
 * model, by recognising the prompt:
 *
 * - a planning prompt → a plan over the listed tools ({@link planDemoRequest});
 * - a re-plan prompt (`COMPLETED_STEPS`) → a patch ({@link patchDemoPlan});
 * - a repair prompt (`PREVIOUS_ANSWER`) → the plan again, or a reply that
 *   quotes the accepted steps;
 * - the sketch-mode reasoning prompt → the plan in words;
 * - the goal prompt → the understanding JSON;
 * - a reflection prompt (`# Failed step`) → a verdict JSON;
 * - the result integration prompt (`# Results`) → the answer from the results;
 * - a guided conversation's choice or reply prompt → {@link answerGuidePrompt};
 * - anything else (an `llm` step) → a short text from the facts in the prompt.
 *
 * @param request - the system prompt and the prompt.
 * @returns the answer text.
 *
 * @example
 * ```ts
 * answerDemoPrompt(buildPlanPrompt({ query: "What is 21*2+5?", tools: createDemoTools().list() }));
 * // '[\n  {"id":"s1","type":"tool","name":"calculator","arguments":{"expr":"21*2+5"}},\n  {"id":"s2","type":"reply",…}\n]'
 * ```
 */
export function answerDemoPrompt(request: Pick<PlanModelRequest, "system" | "prompt">): string {
  const system = request.system ?? "";
  const prompt = request.prompt;
  const guided = answerGuidePrompt(request);
  if (guided !== undefined) return guided;
  if (/Produce a plan as a JSON array/u.test(system)) {
    const context = readPlanningContext(request);
    const completed = readTag(prompt, "COMPLETED_STEPS");
    if (completed !== undefined) {
      return renderPlan(
        patchDemoPlan({
          completed: readList<ListedStep>(completed),
          failed: readList<ListedStep>(readTag(prompt, "FAILED_STEPS")),
          remaining: readList<ListedStep>(readTag(prompt, "REMAINING_STEPS")),
          tools: context.tools,
          maxSteps: context.maxSteps,
        }),
      );
    }
    const accepted = readList<ListedStep>(readTag(prompt, "ACCEPTED_STEPS"));
    if (readTag(prompt, "PREVIOUS_ANSWER") !== undefined && accepted.length > 0) {
      const taken = new Set(accepted.map((step) => step.id));
      let counter = accepted.length;
      while (taken.has(`s${counter + 1}`)) counter++;
      const text = accepted.map((step) => describeStepResult(step)).filter((part) => part !== undefined).join(" ");
      return renderPlan([{ id: `s${counter + 1}`, type: "reply", text: text || "Here is what I found." }]);
    }
    return renderPlan(planDemoRequest(context));
  }
  if (/Think step by step in plain language/u.test(system)) {
    const context = readPlanningContext(request);
    return describePlan(planDemoRequest(context), context.query);
  }
  if (/"objective"/u.test(prompt) && /Output ONLY a JSON object/u.test(`${system}\n${prompt}`)) {
    return describeGoal(readTag(prompt, "USER_QUERY") ?? prompt);
  }
  if (/^# Failed step$/mu.test(prompt) && /^# Answer$/mu.test(prompt)) return reflect(prompt);
  if (/^# Results$/mu.test(prompt) && /^# Request$/mu.test(prompt)) return integrate(prompt);
  return write(prompt);
}
