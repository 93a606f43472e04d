/**
 * The offline demo model.
 *
 * @module
 */
import type { PlanModelRequest } from "../../src/model.ts";
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
 * Whether an answer is a plan of a reply alone — a decline, a greeting, a
 * request it cannot do with the tools allowed — which nobody waits to see
 * stream.
 *
 * @param request - the call.
 * @param answer - its answer.
 * @returns whether the answer is such a plan.
 */
function isReplyAlone(request: PlanModelRequest, answer: string): boolean {
  if (request.purpose !== "plan" && request.purpose !== "repair") return false;
  try {
    const steps: unknown = JSON.parse(answer);
    return Array.isArray(steps) && steps.length === 1 && (steps[0] as { type?: unknown })?.type === "reply";
  } catch {
    return false;
  }
}

/**
 * Creates the offline demo model: a scripted `PlanModel` whose answer is a
 * function of the request ({@link answerDemoPrompt}) — plans over the demo
 * tools, re-plan patches, reflections, `llm` step texts and integrated
 * answers — streamed like a hosted model, with a first-token delay and about
 * 45 tokens per second. A plan of a reply alone (a decline: no tool fits)
 * comes whole after the first-token delay, so a short "I cannot do this"
 * arrives at once. No network, no key; deterministic.
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
  const answers = new WeakMap<PlanModelRequest, string>();
  const requests: PlanModelRequest[] = [];
  const scripted = (rate: number): ScriptedModel =>
    createScriptedModel({
      responses: (request) => answers.get(request) ?? answerDemoPrompt(request),
      tokensPerSecond: rate,
      charsPerToken: options.charsPerToken ?? 4,
      firstTokenMs: options.firstTokenMs ?? (Number.isFinite(tokensPerSecond) ? 350 : 0),
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    });
  const paced = scripted(tokensPerSecond);
  const prompt = scripted(Number.POSITIVE_INFINITY);
  return {
    stream: (request) => {
      requests.push(request);
      let answer: string;
      try {
        answer = answerDemoPrompt(request);
      } catch {
        // The paced model asks again and reports the failure in its stream.
        return paced.stream(request);
      }
      answers.set(request, answer);
      return (isReplyAlone(request, answer) ? prompt : paced).stream(request);
    },
    get calls() {
      return requests.length;
    },
    get requests() {
      return requests;
    },
  };
}
