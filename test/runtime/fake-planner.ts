/**
 * Hand-written planners and helpers for the runtime suites.
 *
 * @module
 */

import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import type { PlanModel, PlanModelRequest } from "../../src/model/plan-model.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import type { Planner } from "../../src/planner/planner.ts";
import type { PlannerEvent, PlanRequest, ReplanRequest } from "../../src/planner/planner-event.ts";

/** Resolves after `ms` real milliseconds (or at once when the signal fires). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A promise with its resolve function outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** What a fake planner records. */
export interface FakePlannerLog {
  requests: PlanRequest[];
  replans: ReplanRequest[];
  /** performance.now() when each step event was handed over, by step id. */
  emittedAt: Map<string, number>;
  /** performance.now() when the stream ended (after `done`), if it did. */
  endedAt: number | undefined;
  /** The stream's signal fired while it was streaming. */
  sawAbort: boolean;
}

/** Options of {@link createFakePlanner}. */
export interface FakePlannerOptions {
  steps: PlanStep[];
  /** Whether `done` says the plan is clean. */
  clean?: boolean;
  /** Waits before each step (real ms). */
  stepDelayMs?: number;
  /** Waits after the last step, before `done`. */
  tailDelayMs?: number;
  /** Called after each step event resumes the stream (the consumer asked for the next event). */
  afterStep?: (step: PlanStep) => void | Promise<void>;
  /** Throws this after the steps instead of `done`. */
  fail?: Error;
  /** Never ends after the steps (until aborted). */
  hang?: boolean;
  /** Answers re-plans. */
  replan?: (request: ReplanRequest, call: number) => PlanStep[] | Promise<PlanStep[]>;
  /** Exposed as `planner.model`. */
  model?: PlanModel;
  /** Planner model calls reported in `done`. */
  modelCalls?: number;
}

/** A planner that streams a fixed plan, for runtime tests. */
export function createFakePlanner(options: FakePlannerOptions): Planner & { log: FakePlannerLog; model?: PlanModel } {
  const log: FakePlannerLog = { requests: [], replans: [], emittedAt: new Map(), endedAt: undefined, sawAbort: false };
  const planner: Planner & { log: FakePlannerLog; model?: PlanModel } = {
    log,
    async *stream(request: PlanRequest): AsyncIterable<PlannerEvent> {
      log.requests.push(request);
      const signal = request.signal;
      const accepted: PlanStep[] = [];
      let index = 0;
      for (const step of options.steps) {
        if ((options.stepDelayMs ?? 0) > 0) await delay(options.stepDelayMs ?? 0, signal);
        if (signal?.aborted === true) {
          log.sawAbort = true;
          return;
        }
        accepted.push(step);
        log.emittedAt.set(step.id, performance.now());
        yield { type: "step", step, index: index++ };
        await options.afterStep?.(step);
      }
      if ((options.tailDelayMs ?? 0) > 0) await delay(options.tailDelayMs ?? 0, signal);
      if (options.hang === true) {
        await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
        log.sawAbort = true;
        return;
      }
      if (options.fail !== undefined) throw options.fail;
      const clean = options.clean ?? true;
      log.endedAt = performance.now();
      yield {
        type: "done",
        steps: accepted,
        clean,
        finishReason: clean ? "stop" : "length",
        fallback: false,
        usage: { modelCalls: options.modelCalls ?? 1, inputTokens: 100, outputTokens: 50 },
      };
    },
    async replan(request: ReplanRequest): Promise<PlanStep[]> {
      log.replans.push(request);
      if (options.replan === undefined) return [];
      return options.replan(request, log.replans.length);
    },
  };
  if (options.model !== undefined) planner.model = options.model;
  return planner;
}

/** A model that answers from a function of the prompt, recording each request. */
export function createEchoModel(
  answer: (request: PlanModelRequest, call: number) => string | Error,
): PlanModel & { requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  return {
    requests,
    async *stream(request) {
      requests.push(request);
      const text = answer(request, requests.length);
      if (text instanceof Error) throw text;
      for (let index = 0; index < text.length; index += 8) yield { type: "text", text: text.slice(index, index + 8) };
      yield {
        type: "finish",
        reason: "stop",
        usage: { inputTokens: request.prompt.length, outputTokens: text.length },
      };
    },
  };
}

/** Collects a run's events. */
export async function collect(events: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const list: RuntimeEvent[] = [];
  for await (const event of events) list.push(event);
  return list;
}

/** Checks the invariants every run keeps; returns the problems found. */
export function invariantProblems(events: readonly RuntimeEvent[]): string[] {
  const problems: string[] = [];
  const planned = new Set<string>();
  const terminal = new Map<string, number>();
  events.forEach((event, position) => {
    if (event.type === "step-planned") {
      if (planned.has(event.step.id)) problems.push(`step ${event.step.id} planned twice`);
      planned.add(event.step.id);
    }
    const stepEvent = event.type.startsWith("step-") && event.type !== "step-planned" && event.type !== "step-issue";
    if ("stepId" in event && stepEvent && !planned.has(event.stepId))
      problems.push(`${event.type} for unplanned step ${event.stepId}`);
    const isTerminal =
      event.type === "step-end" || event.type === "step-skipped" || (event.type === "step-error" && event.final);
    if (isTerminal) {
      if (terminal.has(event.stepId)) problems.push(`step ${event.stepId} has a second terminal event (${event.type})`);
      terminal.set(event.stepId, position);
    } else if ("stepId" in event && stepEvent && terminal.has(event.stepId)) {
      problems.push(`${event.type} for step ${event.stepId} after its terminal event`);
    }
  });
  for (const id of planned) if (!terminal.has(id)) problems.push(`step ${id} has no terminal event`);
  const planEnds = events.filter((event) => event.type === "plan-end");
  if (planEnds.length > 1) problems.push(`${planEnds.length} plan-end events`);
  const replies = events.filter((event) => event.type === "reply");
  if (replies.length > 1) problems.push(`${replies.length} reply events`);
  const deltas = events
    .filter((event) => event.type === "reply-delta")
    .map((event) => (event.type === "reply-delta" ? event.delta : ""))
    .join("");
  const replyEvent = replies[0];
  if (replyEvent?.type === "reply" && deltas !== replyEvent.text)
    problems.push(`reply deltas ${JSON.stringify(deltas)} differ from the reply ${JSON.stringify(replyEvent.text)}`);
  const ends = events.filter((event) => event.type === "run-end");
  if (ends.length !== 1) problems.push(`${ends.length} run-end events`);
  if (events[events.length - 1]?.type !== "run-end") problems.push("run-end is not last");
  for (let index = 1; index < events.length; index++) {
    if ((events[index]?.t ?? 0) < (events[index - 1]?.t ?? 0)) problems.push(`event ${index} goes back in time`);
  }
  return problems;
}

/** Step constructors. */
export const tool = (
  id: string,
  name: string,
  args: Record<string, unknown> = {},
  extra: Partial<PlanStep> = {},
): PlanStep => ({ id, type: "tool", name, arguments: args, ...extra }) as PlanStep;
export const llm = (id: string, prompt: string): PlanStep => ({ id, type: "llm", prompt });
export const reply = (id: string, text: string): PlanStep => ({ id, type: "reply", text });
