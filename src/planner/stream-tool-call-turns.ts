/**
 * Planning from native tool calls: each call a step the moment its input closes, turn after turn.
 *
 * @module
 */
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
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
import { canonicalJson } from "../shared/canonical-json.ts";
import { createStreamedCallArguments, type StreamedCallArguments } from "./streamed-call-arguments.ts";

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

/** A native call of the turn, from its first part to its final input. */
interface TurnCall {
  toolName: string;
  /** Its arguments as they stream, until the provider says they ended. */
  streamed?: StreamedCallArguments;
  /** The call as it will be told back to the model. */
  call: PlanModelToolCall;
  /** The canonical JSON of the arguments its step (or its issues) were decided on; unset while undecided. */
  decided?: string;
  /** The position of its step in the plan, once decided. */
  at?: number;
  /** The step it is, or the issues that dropped it. */
  stepId?: string;
  issues?: PlanIssue[];
  /** What the model also hears when the call did not succeed. */
  notes: string[];
}

/** The longest fallback reply, in characters. */
const maxFallbackLength = 2_000;

/** The longest quote of a call's arguments in a message, in characters. */
const maxQuoteLength = 200;

/**
 * Reads a call's JSON arguments leniently: no text is `{}`.
 *
 * @param text - the whole input text.
 * @returns the arguments, or undefined when they are not JSON.
 */
function readArguments(text: string): { value: unknown } | undefined {
  if (text.trim() === "") return { value: {} };
  const parser = createJsonStreamParser();
  try {
    parser.write(text);
    return { value: parser.end() };
  } catch {
    return undefined;
  }
}

/**
 * Quotes a call's arguments in a message.
 *
 * @param text - their text.
 * @returns the quote, shortened.
 */
function quote(text: string): string {
  return text.length > maxQuoteLength ? `${text.slice(0, maxQuoteLength)}…` : text;
}

/**
 * Builds an issue for a call at a position.
 *
 * @param code - the issue code.
 * @param index - the call's position.
 * @param stepId - the id it would have had.
 * @param message - what happened, without the path.
 * @param pointer - the place inside the step (`/arguments`).
 * @returns the issue.
 */
function callIssue(code: PlanIssue["code"], index: number, stepId: string, message: string, pointer = ""): PlanIssue {
  const path = `/steps/${index}${pointer}`;
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
  const failure = (output: string): PlanModelToolResult => ({ ...base, output: [output, ...entry.notes].join("; "), isError: true });
  if (entry.stepId === undefined) return failure(`Not run: ${(entry.issues ?? []).map((issue) => issue.message).join("; ")}`);
  const outcome = outcomes.get(entry.stepId);
  if (outcome === undefined) return failure(`Not run: no outcome for step "${entry.stepId}"`);
  if (outcome.status === "succeeded") return { ...base, output: outcome.result ?? null };
  if (outcome.status === "failed") return failure(`Failed: ${outcome.error}`);
  return failure(`Not run: ${outcome.reason}`);
}

/**
 * Plans from a model's native tool calls. Each call becomes a tool step
 * (`s1`, `s2`, … in the order their arguments close, across turns) the
 * moment its input closes — its JSON object closing in the deltas, or its
 * end part, whichever comes first — validated like a step of a JSON plan:
 * its arguments may reference earlier calls (`"{{s1.price}}"`). A call that
 * does not validate is dropped with its issues, and the model hears why
 * with the turn's results.
 *
 * - The provider's final input (`tool-call`) wins. Equal to the streamed
 *   arguments as canonical JSON, it confirms the step; different, it
 *   supersedes it: an `invalid-argument` issue, the early step leaves the
 *   plan and its outcome is never the call's answer, the final input becomes
 *   a new step, and the turn is not clean — so a side-effecting tool runs in
 *   neither version, and a read-only one runs again.
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
      // By call id, in the order the model began them.
      const calls = new Map<string, TurnCall>();
      let text = "";
      let dropped = false;

      const begin = (callId: string, toolName: string, streamed: boolean): TurnCall => {
        let entry = calls.get(callId);
        if (entry === undefined) {
          entry = { toolName, call: { callId, toolName, input: "" }, notes: [] };
          if (streamed) entry.streamed = createStreamedCallArguments();
          calls.set(callId, entry);
        }
        return entry;
      };

      // Makes a call a step, or drops it with its issues, on the arguments read from `input`.
      const decide = function* (entry: TurnCall, read: { value: unknown } | undefined, input: string): Generator<PlannerEvent> {
        const at = position++;
        const id = `s${at + 1}`;
        entry.at = at;
        entry.decided = read === undefined ? `\u0000${input}` : canonicalJson(read.value);
        entry.call.input = read === undefined ? input : read.value;
        const { toolName } = entry;
        let issues: PlanIssue[];
        if (read === undefined) {
          issues = [callIssue("invalid-argument", at, id, `The arguments of call "${id}" to "${toolName}" are not JSON: ${JSON.stringify(input.slice(0, maxQuoteLength))}`)];
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

      // The call's final arguments: the provider's whole input, else all the streamed text. What the model
      // wrote last wins: a step decided on arguments that differ is superseded, and the turn is not clean.
      const settle = function* (entry: TurnCall, whole: string | undefined): Generator<PlannerEvent> {
        const input = whole ?? entry.streamed?.text ?? "";
        const read = readArguments(input);
        if (entry.decided === undefined) {
          yield* decide(entry, read, input);
          return;
        }
        const final = read === undefined ? `\u0000${input}` : canonicalJson(read.value);
        if (final === entry.decided) return;
        const earlier = entry.decided.startsWith("\u0000") ? entry.decided.slice(1) : entry.decided;
        const stale = entry.stepId;
        dropped = true;
        delete entry.stepId;
        delete entry.issues;
        if (stale !== undefined) {
          const index = steps.findIndex((step) => step.id === stale);
          if (index >= 0) steps.splice(index, 1);
          rejectedIds.add(stale);
          const message = `Call "${stale}" to "${entry.toolName}" was planned from its streamed arguments ${quote(earlier)}, which differ from its final arguments ${quote(input)}: its result is not the call's answer, and a turn with such a call runs none of its side-effecting calls`;
          entry.notes.push(message);
          yield { type: "issue", issue: callIssue("invalid-argument", entry.at ?? position, stale, message, "/arguments"), action: "dropped" };
        }
        yield* decide(entry, read, input);
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
            begin(part.callId, part.toolName, true);
          } else if (part.type === "tool-input-delta") {
            const entry = calls.get(part.callId);
            const closed = entry?.streamed?.write(part.delta);
            // The arguments are complete the moment their JSON closes, though the provider may announce it only at the
            // end of the turn: the call becomes a step now, and its final input confirms or supersedes it.
            if (entry !== undefined && closed !== undefined && entry.decided === undefined) yield* decide(entry, { value: closed }, entry.streamed?.text ?? "");
          } else if (part.type === "tool-input-end") {
            const entry = calls.get(part.callId);
            if (entry?.streamed !== undefined) {
              yield* settle(entry, undefined);
              delete entry.streamed;
            }
          } else if (part.type === "tool-call") {
            const entry = begin(part.callId, part.toolName, false);
            yield* settle(entry, part.input);
            delete entry.streamed;
          }
        }
      } finally {
        await call.return("missing");
      }
      for (const entry of calls.values()) {
        if (entry.streamed === undefined) continue;
        // Arguments that closed but were never announced as ended are read as they are.
        if (entry.decided !== undefined) {
          yield* settle(entry, undefined);
          continue;
        }
        // Calls whose arguments never closed were cut off: they never become steps.
        const at = position++;
        const id = `s${at + 1}`;
        const issue = callIssue("invalid-step", at, id, `Call "${id}" to "${entry.toolName}" was cut off before its arguments closed and was dropped`);
        entry.call.input = entry.streamed.text;
        entry.issues = [issue];
        rejectedIds.add(id);
        dropped = true;
        yield { type: "issue", issue, action: "dropped" };
      }
      lastText = text;
      const finishedCleanly = finishReason === "stop" || finishReason === "tool-calls";
      if (calls.size === 0) {
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
      const ids = [...calls.values()].flatMap((entry) => (entry.stepId === undefined ? [] : [entry.stepId]));
      const outcomes = new Map((await setup.awaitOutcomes(ids)).map((outcome) => [outcome.id, outcome]));
      if (controller.signal.aborted) break;
      messages.push({ role: "assistant", text, toolCalls: [...calls.values()].map((entry) => entry.call) });
      messages.push({ role: "tool", results: [...calls.values()].map((entry) => toolResult(entry, outcomes)) });
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
