/**
 * Planning from native tool calls: each call a step the moment its input closes, turn after turn.
 *
 * @module
 */
import { createJsonStreamParser, type JsonStreamParser } from "../json/create-json-stream-parser.ts";
import type { FinishReason, PlanModel, PlanModelMessage, PlanModelTool, PlanModelToolCall, PlanModelToolResult } from "../model/plan-model.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import { validateStep } from "../validate/validate-step.ts";
import type { PlanPrompt } from "./build-plan-prompt.ts";
import { buildSinkReply, createIdPicker } from "./build-sink-reply.ts";
import type { PlannerEvent, PlannerUsage, StepOutcome } from "./planner-event.ts";
import type { ModelTimeouts } from "../model/bound-stream.ts";
import { readModelStream } from "../model/read-model-stream.ts";

/** Everything a native tool-call planning run needs. */
export interface ToolCallTurnsSetup {
  model: PlanModel;
  /** The system prompt and the request. */
  prompt: PlanPrompt;
  /** The whole catalog, compiled: calls are validated against it. */
  catalog: CompiledCatalog;
  /** The tools offered to the model. */
  tools: readonly PlanModelTool[];
  /** The most steps in all, the reply included. */
  maxSteps: number;
  /** The most model turns. */
  maxTurns: number;
  /** The reply when the model gave neither calls nor text. */
  fallbackText: string;
  /** Tells what became of a turn's steps; without it the run stops after one turn. */
  awaitOutcomes?: ((stepIds: readonly string[]) => Promise<StepOutcome[]>) | undefined;
  signal?: AbortSignal | undefined;
  /** Updated in place. */
  usage: PlannerUsage;
  /** The idle and total limits of each model call. */
  timeouts: ModelTimeouts;
}

/** A native call as it streams. */
interface OpenCall {
  toolName: string;
  text: string;
  parser: JsonStreamParser;
  /** The parser gave up: the input is not JSON. */
  broken: boolean;
}

/** A call of the turn, as it will be told back to the model. */
interface TurnCall {
  call: PlanModelToolCall;
  /** The step it became, or the issues that dropped it. */
  stepId?: string;
  issues?: PlanIssue[];
}

/** The longest fallback reply, in characters. */
const maxFallbackLength = 2_000;

/**
 * Reads a call's JSON arguments.
 *
 * @param open - the call as it streamed.
 * @param whole - the whole input text, when the model sent the call whole.
 * @returns the arguments, or undefined when they are not JSON.
 */
function readArguments(open: OpenCall | undefined, whole: string | undefined): { value: unknown } | undefined {
  const text = whole ?? open?.text ?? "";
  if (text.trim() === "") return { value: {} };
  let parser = open?.parser;
  if (whole !== undefined || parser === undefined || open?.broken === true) {
    parser = createJsonStreamParser();
    try {
      parser.write(text);
    } catch {
      return undefined;
    }
  }
  try {
    return { value: parser.end() };
  } catch {
    return undefined;
  }
}

/**
 * Builds an issue for a call at a position.
 *
 * @param code - the issue code.
 * @param index - the call's position.
 * @param stepId - the id it would have had.
 * @param message - what happened, without the path.
 * @returns the issue.
 */
function callIssue(code: PlanIssue["code"], index: number, stepId: string, message: string): PlanIssue {
  const path = `/steps/${index}`;
  return { code, index, stepId, path, message: `${message} (${path})` };
}

/**
 * Tells a step's outcome to the model.
 *
 * @param entry - the call and what it became.
 * @param outcomes - the outcomes by step id.
 * @returns the tool result.
 */
function toolResult(entry: TurnCall, outcomes: ReadonlyMap<string, StepOutcome>): PlanModelToolResult {
  const base = { callId: entry.call.callId, toolName: entry.call.toolName };
  if (entry.stepId === undefined) {
    return { ...base, output: `Not run: ${(entry.issues ?? []).map((issue) => issue.message).join("; ")}`, isError: true };
  }
  const outcome = outcomes.get(entry.stepId);
  if (outcome === undefined) return { ...base, output: `Not run: no outcome for step "${entry.stepId}"`, isError: true };
  if (outcome.status === "succeeded") return { ...base, output: outcome.result ?? null };
  if (outcome.status === "failed") return { ...base, output: `Failed: ${outcome.error}`, isError: true };
  return { ...base, output: `Not run: ${outcome.reason}`, isError: true };
}

/**
 * Plans from a model's native tool calls. Each call becomes a tool step
 * (`s1`, `s2`, … in call order across turns) the moment its input closes,
 * validated like a step of a JSON plan: its arguments may reference earlier
 * calls (`"{{s1.price}}"`). A call that does not validate is dropped with
 * its issues, and the model hears why with the turn's results.
 *
 * - A turn that ends with calls and finish `tool-calls` (or `stop`), with no
 *   call dropped, is clean: `turn-end` says so. With `awaitOutcomes`, the
 *   outcomes go back to the model for the next turn.
 * - A turn that drops a call is not clean (a runtime then runs none of its
 *   side-effecting steps), but the loop goes on: the model hears which calls
 *   did not run and why, and may make them again.
 * - A turn that ends in `length`, an error or any other reason is not clean
 *   and ends the loop.
 * - The model's text in a turn without calls is the reply. Otherwise the
 *   reply quotes the plan's final results (`no-reply`, repaired).
 * - Bounded by `maxTurns` model turns and `maxSteps` steps (the last place
 *   is kept for the reply).
 *
 * @param setup - model, prompt, catalog, offered tools and limits.
 * @returns the events; `done` is always last.
 * @throws PlankitError `aborted` when the signal fires; `model-error` when the model fails.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCallTurns({ model, prompt, catalog, tools, maxSteps: 24, maxTurns: 8, … })) …
 * ```
 */
export async function* streamToolCallTurns(setup: ToolCallTurnsSetup): AsyncGenerator<PlannerEvent, void> {
  const { catalog, maxSteps, usage } = setup;
  const steps: PlanStep[] = [];
  const rejectedIds = new Set<string>();
  const messages: PlanModelMessage[] = [];
  let position = 0;
  let clean = true;
  let finishReason: FinishReason | "missing" = "missing";
  let replyText: string | undefined;
  let lastText = "";
  let completed = false;

  const controller = new AbortController();
  const outer = setup.signal;
  const forwardAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forwardAbort();
  else outer?.addEventListener("abort", forwardAbort, { once: true });

  try {
    for (let turn = 0; turn < setup.maxTurns; turn++) {
      const open = new Map<string, OpenCall>();
      const calls: TurnCall[] = [];
      const closed = new Set<string>();
      let text = "";
      let dropped = false;

      const close = function* (callId: string, toolName: string, whole: string | undefined): Generator<PlannerEvent> {
        if (closed.has(callId)) return;
        closed.add(callId);
        const streamed = open.get(callId);
        open.delete(callId);
        const at = position++;
        const id = `s${at + 1}`;
        const read = readArguments(streamed, whole);
        const entry: TurnCall = { call: { callId, toolName, input: read?.value ?? whole ?? streamed?.text ?? "" } };
        calls.push(entry);
        let issues: PlanIssue[];
        if (read === undefined) {
          issues = [callIssue("invalid-argument", at, id, `The arguments of call "${id}" to "${toolName}" are not JSON: ${JSON.stringify((whole ?? streamed?.text ?? "").slice(0, 200))}`)];
        } else if (steps.length >= maxSteps - 1) {
          const plural = maxSteps === 1 ? "" : "s";
          issues = [callIssue("too-many-steps", at, id, `Call "${id}" to "${toolName}" exceeds the limit of ${maxSteps} step${plural} (the last place is kept for the reply)`)];
        } else {
          const result = validateStep({ id, type: "tool", name: toolName, arguments: read.value }, { tools: catalog, steps, index: at, rejectedIds });
          if (result.step !== undefined && result.issues.length === 0) {
            steps.push(result.step);
            entry.stepId = result.step.id;
            yield { type: "step", step: result.step, index: steps.length - 1 };
            return;
          }
          issues = result.issues;
        }
        rejectedIds.add(id);
        entry.issues = issues;
        dropped = true;
        for (const issue of issues) yield { type: "issue", issue, action: "dropped" };
      };

      const call = readModelStream(
        setup.model,
        {
          ...setup.prompt,
          purpose: "plan",
          tools: setup.tools,
          ...(messages.length === 0 ? {} : { messages: [...messages] }),
          signal: controller.signal,
        },
        { what: "Planning", usage, timeouts: setup.timeouts, ...(turn === 0 ? { whileWaiting: (): void => catalog.prepare(setup.tools.map((tool) => tool.name)) } : {}) },
      );
      try {
        for (let next = await call.next(); ; next = await call.next()) {
          if (next.done === true) {
            finishReason = next.value;
            break;
          }
          const part = next.value;
          if (part.type === "text") {
            text += part.text;
          } else if (part.type === "tool-input-start") {
            if (!closed.has(part.callId) && !open.has(part.callId)) {
              open.set(part.callId, { toolName: part.toolName, text: "", parser: createJsonStreamParser(), broken: false });
            }
          } else if (part.type === "tool-input-delta") {
            const streamed = open.get(part.callId);
            if (streamed !== undefined) {
              streamed.text += part.delta;
              if (!streamed.broken) {
                try {
                  streamed.parser.write(part.delta);
                } catch {
                  streamed.broken = true;
                }
              }
            }
          } else if (part.type === "tool-input-end") {
            const streamed = open.get(part.callId);
            if (streamed !== undefined) yield* close(part.callId, streamed.toolName, undefined);
          } else if (part.type === "tool-call") {
            yield* close(part.callId, part.toolName, open.has(part.callId) ? undefined : part.input);
          }
        }
      } finally {
        await call.return("missing");
      }
      // Calls still open when the turn ended were cut off: they never become steps.
      for (const [callId, streamed] of open) {
        const at = position++;
        const id = `s${at + 1}`;
        const issue = callIssue("invalid-step", at, id, `Call "${id}" to "${streamed.toolName}" was cut off before its arguments closed and was dropped`);
        calls.push({ call: { callId, toolName: streamed.toolName, input: streamed.text }, issues: [issue] });
        rejectedIds.add(id);
        dropped = true;
        yield { type: "issue", issue, action: "dropped" };
      }
      lastText = text;
      const finishedCleanly = finishReason === "stop" || finishReason === "tool-calls";
      if (calls.length === 0) {
        if (finishReason !== "stop") clean = false;
        else replyText = text.trim();
        break;
      }
      const turnClean = finishedCleanly && !dropped;
      yield { type: "turn-end", turn, clean: turnClean, finishReason };
      if (!turnClean) clean = false;
      // A turn cut off ends the loop; a finished turn with invalid calls goes on, so the model hears why they did not run.
      if (!finishedCleanly) break;
      if (setup.awaitOutcomes === undefined || steps.length >= maxSteps - 1) break;
      const ids = calls.flatMap((entry) => (entry.stepId === undefined ? [] : [entry.stepId]));
      const outcomes = new Map((await setup.awaitOutcomes(ids)).map((outcome) => [outcome.id, outcome]));
      if (controller.signal.aborted) break;
      messages.push({ role: "assistant", text, toolCalls: calls.map((entry) => entry.call) });
      messages.push({ role: "tool", results: calls.map((entry) => toolResult(entry, outcomes)) });
    }

    let fallback = false;
    const freeId = createIdPicker([...steps.map((step) => step.id), ...rejectedIds]);
    let reply: PlanStep;
    if (replyText !== undefined && replyText !== "") {
      reply = { id: freeId(`s${position + 1}`), type: "reply", text: replyText };
    } else if (steps.length > 0) {
      const sinkReply = buildSinkReply(steps, freeId("reply"));
      reply = sinkReply.reply;
      const quoted = sinkReply.quoted;
      yield { type: "issue", issue: callIssue("no-reply", steps.length, reply.id, `The model gave no answer after its calls; reply "${reply.id}" quoting ${quoted} was added`), action: "repaired" };
    } else {
      fallback = true;
      const modelText = lastText.trim();
      reply = { id: freeId(`s${position + 1}`), type: "reply", text: modelText === "" ? setup.fallbackText : modelText.slice(0, maxFallbackLength) };
    }
    steps.push(reply);
    yield { type: "step", step: reply, index: steps.length - 1 };
    completed = true;
    yield { type: "done", steps, clean: clean && !fallback, finishReason, fallback, usage: { ...usage } };
  } finally {
    outer?.removeEventListener("abort", forwardAbort);
    if (!completed) controller.abort();
  }
}
