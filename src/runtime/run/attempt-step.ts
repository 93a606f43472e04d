/**
 * One attempt of a tool or llm step.
 *
 * @module
 */
import { PlankitError } from "../../errors/plankit-error.ts";
import type { RuntimeErrorInfo, StepSkipCode } from "../../events/runtime-event.ts";
import { toErrorInfo } from "../../events/to-error-info.ts";
import { collectModelText } from "../../model/collect-model-text.ts";
import type { PlanModel } from "../../model/plan-model.ts";
import type { LlmStep } from "../../plan/llm-step-schema.ts";
import { resolveReferences } from "../../plan/resolve-references.ts";
import { canonicalJson } from "../../shared/canonical-json.ts";
import { isPromiseLike } from "../../shared/is-promise-like.ts";
import { raceSignal } from "../race-signal.ts";
import type { CacheHit } from "../result-cache.ts";
import type { RunCore } from "./run-core.ts";
import type { RunResultCache } from "./run-result-cache.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepEntry } from "./step-table.ts";
import { withTimeout } from "./with-timeout.ts";

/** How one attempt ended. */
export type AttemptOutcome =
  | { ok: true; value: unknown; cached: boolean }
  | { ok: false; error: RuntimeErrorInfo; permanent: boolean }
  | { ok: "skip"; code: StepSkipCode; reason: string };

/** What an attempt needs from its run: the run's core, its result cache and its model. */
export interface AttemptContext extends Pick<RunCore, "config" | "input" | "policy" | "limits" | "signal" | "emit"> {
  readonly cache: RunResultCache | undefined;
  /** The model for llm steps: counted, budgeted and bounded in time. */
  readonly model: PlanModel | undefined;
  /** Whether an attempt begun at `generation` still counts (the run goes on and the step was not stopped). */
  isCurrent(entry: StepEntry, generation: number): boolean;
}

/** `Omit` applied to each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Errors that another identical attempt cannot fix. */
const permanentCodes = new Set([
  "invalid-argument",
  "unknown-tool",
  "unknown-reference",
  "aborted",
  "budget-exceeded",
  "invalid-result",
]);

/**
 * Resolves a step's input from the results so far: a fresh copy, so the
 * tool may do what it likes with it and nothing it does reaches history.
 *
 * @param entry - a tool or llm step.
 * @param results - the run's results (frozen snapshots).
 * @returns the arguments (with a reflector's changes) or the prompt, or the reference error.
 */
export function resolveStepInput(
  entry: StepEntry,
  results: ReadonlyMap<string, unknown>,
): { ok: true; input: unknown } | { ok: false; error: RuntimeErrorInfo } {
  const step = entry.step;
  try {
    if (step.type === "tool") {
      const planned = entry.edited ?? step.arguments;
      const args = entry.overrides === undefined ? planned : { ...planned, ...entry.overrides };
      return {
        ok: true,
        input: snapshotValue(resolveReferences(args, results), {
          freeze: false,
          what: `The arguments of step "${step.id}"`,
        }),
      };
    }
    // Only tool and llm steps run as tasks: the scheduler hands a reply step to the replies.
    const prompt = resolveReferences((step as LlmStep).prompt, results);
    return { ok: true, input: typeof prompt === "string" ? prompt : (JSON.stringify(prompt) ?? "") };
  } catch (error) {
    return { ok: false, error: toErrorInfo(error, "unknown-reference") };
  }
}

/**
 * Runs one attempt with a resolved input: serves a read-only tool from the
 * cache, or calls the tool or model under the step's time limit, and
 * snapshots the result (a result that cannot be copied fails the attempt
 * with `invalid-result`). Returns synchronously for a synchronous cache hit
 * or a refusal, so no tick is spent before a tool starts.
 *
 * @param context - the run.
 * @param entry - the step.
 * @param input - its resolved input (see {@link resolveStepInput}).
 * @param attempt - the attempt number.
 * @returns the outcome.
 *
 * @example
 * ```ts
 * const outcome = await attemptStep(context, entry, input, 1);
 * ```
 */
export function attemptStep(
  context: AttemptContext,
  entry: StepEntry,
  input: unknown,
  attempt: number,
): AttemptOutcome | Promise<AttemptOutcome> {
  const step = entry.step;
  entry.lastInput = input;
  // Only tool and llm steps get here: `resolveStepInput` refuses the others.
  if (step.type === "tool") return attemptTool(context, entry, step.name, input as Record<string, unknown>, attempt);
  return attemptModel(context, entry, input as string, attempt);
}

/**
 * A tool attempt: cache first for read-only tools.
 *
 * @param context - the run.
 * @param entry - the step.
 * @param name - the tool.
 * @param args - the resolved arguments (the tool's own copy).
 * @param attempt - the attempt number.
 * @returns the outcome.
 */
function attemptTool(
  context: AttemptContext,
  entry: StepEntry,
  name: string,
  args: Record<string, unknown>,
  attempt: number,
): AttemptOutcome | Promise<AttemptOutcome> {
  const cache = context.policy.mayCache(entry.step) ? context.cache : undefined;
  if (cache === undefined) return callTool(context, entry, name, args, attempt, undefined, "");
  const key = `${name} ${canonicalJson(args)}`;
  const fromCache = (hit: CacheHit | undefined): AttemptOutcome | undefined => {
    if (hit === undefined) return undefined;
    let value: unknown;
    try {
      value = snapshotValue(hit.value, { freeze: true, what: `The cached result of step "${entry.step.id}"` });
    } catch {
      return undefined;
    }
    context.limits.countCacheHit();
    context.emit({
      type: "step-start",
      stepId: entry.step.id,
      attempt,
      tool: name,
      input: snapshotValue(args, { freeze: true, what: "" }),
      cached: true,
    });
    return { ok: true, value, cached: true };
  };
  const lookup = cache.get(key);
  if (isPromiseLike<CacheHit | undefined>(lookup)) {
    const generation = entry.generation;
    return raceSignal(lookup, context.signal)
      .catch(() => undefined)
      .then((hit): AttemptOutcome | Promise<AttemptOutcome> => {
        if (!context.isCurrent(entry, generation)) return { ok: "skip", code: "aborted", reason: "The run ended" };
        return fromCache(hit) ?? callTool(context, entry, name, args, attempt, cache, key);
      });
  }
  return fromCache(lookup as CacheHit | undefined) ?? callTool(context, entry, name, args, attempt, cache, key);
}

/**
 * Calls the registry under the step's time limit.
 *
 * @param context - the run.
 * @param entry - the step.
 * @param name - the tool.
 * @param args - the resolved arguments.
 * @param attempt - the attempt number.
 * @param cache - where to store the result, if anywhere.
 * @param key - the cache key.
 * @returns the outcome.
 */
function callTool(
  context: AttemptContext,
  entry: StepEntry,
  name: string,
  args: Record<string, unknown>,
  attempt: number,
  cache: RunResultCache | undefined,
  key: string,
): AttemptOutcome | Promise<AttemptOutcome> {
  const refusal = context.limits.refuseToolCall();
  if (refusal !== undefined) return { ok: "skip", code: "budget", reason: refusal };
  const step = entry.step;
  // The event keeps its own frozen copy: what the tool does to its arguments cannot reach history.
  context.emit({
    type: "step-start",
    stepId: step.id,
    attempt,
    tool: name,
    input: snapshotValue(args, { freeze: true, what: "" }),
    cached: false,
  });
  const timeoutMs = context.policy.timeoutOf(step);
  const epoch = cache?.epoch ?? 0;
  const sideEffecting = !context.policy.traitsOf(step).readOnly;
  let attemptEnded = false;
  return withTimeout(
    context.config.clock,
    timeoutMs,
    context.signal,
    `Step "${step.id}" timed out after ${timeoutMs} ms`,
    (signal) => {
      const call = context.config.registry.call(name, args, {
        signal,
        callId: `${context.input.runId}:${step.id}:${attempt}`,
      });
      if (sideEffecting) {
        // A tool that ignores its signal may still write after a timeout or an abort ended the attempt:
        // what was read in between is stale once it lands.
        const landed = (): void => {
          if (attemptEnded) context.cache?.invalidate();
        };
        call.then(landed, landed);
      }
      return call;
    },
  ).then(
    (value): AttemptOutcome => {
      attemptEnded = true;
      if (sideEffecting) context.cache?.invalidate();
      let frozen: unknown;
      try {
        frozen = snapshotValue(value, { freeze: true, what: `The result of step "${step.id}" (tool "${name}")` });
      } catch (error) {
        return { ok: false, error: toErrorInfo(error, "invalid-result"), permanent: true };
      }
      cache?.set(key, frozen, epoch);
      return { ok: true, value: frozen, cached: false };
    },
    (error: unknown): AttemptOutcome => {
      attemptEnded = true;
      if (sideEffecting) context.cache?.invalidate();
      const info = toErrorInfo(error, "tool-error");
      return { ok: false, error: info, permanent: permanentCodes.has(info.code) };
    },
  );
}

/**
 * An llm step's attempt: the model's answer text.
 *
 * @param context - the run.
 * @param entry - the step.
 * @param prompt - the resolved prompt.
 * @param attempt - the attempt number.
 * @returns the outcome.
 */
function attemptModel(
  context: AttemptContext,
  entry: StepEntry,
  prompt: string,
  attempt: number,
): AttemptOutcome | Promise<AttemptOutcome> {
  const step = entry.step;
  const model = context.model;
  if (model === undefined) {
    context.emit({ type: "step-start", stepId: step.id, attempt, input: prompt, cached: false });
    return {
      ok: false,
      error: { code: "model-error", message: `Step "${step.id}" needs a model and the runtime has none` },
      permanent: true,
    };
  }
  const refusal = context.limits.modelCallRefusal();
  if (refusal !== undefined) return { ok: "skip", code: "budget", reason: refusal };
  context.emit({ type: "step-start", stepId: step.id, attempt, input: prompt, cached: false });
  const timeoutMs = context.policy.timeoutOf(step);
  return withTimeout(
    context.config.clock,
    timeoutMs,
    context.signal,
    `Step "${step.id}" timed out after ${timeoutMs} ms`,
    async (signal) => {
      const answer = await collectModelText(
        model,
        { purpose: "llm-step", prompt, signal },
        { what: `Step "${step.id}"` },
      );
      if (answer.finishReason === "error")
        throw new PlankitError("model-error", `The model failed while answering step "${step.id}"`);
      return answer.text;
    },
  ).then(
    (value): AttemptOutcome => ({ ok: true, value, cached: false }),
    (error: unknown): AttemptOutcome => {
      const info = toErrorInfo(error, "model-error");
      return { ok: false, error: info, permanent: permanentCodes.has(info.code) };
    },
  );
}
