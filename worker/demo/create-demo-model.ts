/**
 * The offline demo model.
 *
 * @module
 */
import { createScriptedModel, type ScriptedModel } from "../../src/test.ts";
import { answerDemoPrompt } from "./answer-demo-prompt.ts";

/** Options of {@link createDemoModel}. */
export interface DemoModelOptions {
  /**
   * Streaming rate; `Infinity` streams without delay (tests).
   *
   * @defaultValue `45`
   */
  tokensPerSecond?: number;
  /**
   * Characters per streamed token.
   *
   * @defaultValue `4`
   */
  charsPerToken?: number;
  /**
   * Delay before the first token, in milliseconds.
   *
   * @defaultValue `350`, or `0` when `tokensPerSecond` is `Infinity`
   */
  firstTokenMs?: number;
  /** Waits `ms`, rejecting when the signal fires; inject one to control time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The name the demo model reports (in the `x-plankit-model` header and the demo page). */
export const demoModelName = "plankit-demo (offline, scripted)";

/**
 * Creates the offline demo model: a scripted `PlanModel` whose answer is a
 * function of the request ({@link answerDemoPrompt}) — plans over the demo
 * tools, re-plan patches, reflections, `llm` step texts and integrated
 * answers — streamed like a hosted model, with a first-token delay and about
 * 45 tokens per second. No network, no key; deterministic.
 *
 * @param options - pace and wait.
 * @returns the model (which also counts its calls and keeps the requests).
 *
 * @example
 * ```ts
 * const planner = new LLMPlanner({ model: createDemoModel() });
 * for await (const event of planner.stream({ query: "What is 21*2+5?", tools: createDemoTools() })) console.log(event);
 * ```
 */
export function createDemoModel(options: DemoModelOptions = {}): ScriptedModel {
  const tokensPerSecond = options.tokensPerSecond ?? 45;
  return createScriptedModel({
    responses: (request) => answerDemoPrompt(request),
    tokensPerSecond,
    charsPerToken: options.charsPerToken ?? 4,
    firstTokenMs: options.firstTokenMs ?? (Number.isFinite(tokensPerSecond) ? 350 : 0),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });
}
