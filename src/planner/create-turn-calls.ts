/**
 * The native calls of one model turn: from their first part to their final input, and back to the model.
 *
 * @module
 */
import { createJsonStreamParser } from "../json/create-json-stream-parser.ts";
import type { PlanModelMessage, PlanModelToolCall, PlanModelToolResult } from "../model/plan-model.ts";
import type { ModelCallPart } from "../model/read-model-stream.ts";
import type { PlanIssue } from "../plan/plan-issue.ts";
import type { PlanStep } from "../plan/plan-step-schema.ts";
import { referencesOf } from "../plan/references-of.ts";
import { stepIssue } from "../plan/step-issue.ts";
import { canonicalJson } from "../shared/canonical-json.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import { validateStep } from "../validate/validate-step.ts";
import { issueEvent } from "./issue-event.ts";
import { keptForReply } from "./kept-for-reply.ts";
import type { PlannerEvent, StepOutcome } from "./planner-event.ts";
import { createStreamedCallArguments, type StreamedCallArguments } from "./streamed-call-arguments.ts";

/** The plan the turns add to, shared by all of them. */
export interface PlanSoFar {
  /** The accepted steps. */
  readonly steps: PlanStep[];
  /** Ids of calls that did not become steps, or whose steps were withdrawn. */
  readonly rejectedIds: Set<string>;
  /** Positions handed out so far: the next call's step is `s<position + 1>`. */
  position: number;
  /** Calls are validated against it. */
  readonly catalog: CompiledCatalog;
  /** The most steps in all, the reply included. */
  readonly maxSteps: number;
}

/** What {@link createTurnCalls} returns: the coordinator feeds it the model's call parts. */
export interface TurnCalls {
  /**
   * Takes a part of a native call: its first part; a piece of its arguments (the call becomes a step when
   * they close); its end, as the provider says; or the call whole, or the final input of a streamed one.
   */
  take(part: Exclude<ModelCallPart, { type: "text" }>): Generator<PlannerEvent>;
  /** The turn ended: arguments that closed unannounced are read as they are; calls whose arguments never closed were cut off. */
  finish(): Generator<PlannerEvent>;
  /** How many calls the turn made. */
  readonly size: number;
  /** Whether a call was dropped or superseded: the turn is not clean. */
  readonly dropped: boolean;
  /** The ids of the steps that answer the turn's calls. */
  stepIds(): string[];
  /**
   * The turn as the model hears it next: its text and calls, then their results.
   *
   * @param text - the model's text in the turn.
   * @param outcomes - what became of the steps, by id.
   * @returns the assistant and tool messages.
   */
  toMessages(text: string, outcomes: ReadonlyMap<string, StepOutcome>): PlanModelMessage[];
}

/** A native call of the turn. */
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
  /** The step that answers it, or the issues that dropped it. */
  stepId?: string;
  issues?: PlanIssue[];
  /** What the model also hears when the call did not succeed. */
  notes: string[];
}

/** The longest quote of a call's arguments in a message, in characters. */
const maxQuoteLength = 200;

/** Marks the key of arguments that are not JSON, so it never equals a canonical JSON text. */
const unreadable = "\u0000";

/** Arguments read from their text, and the key that tells whether two readings agree. */
interface ArgumentsReading {
  /** The arguments, or `undefined` when the text is not JSON even leniently. */
  read: { value: unknown } | undefined;
  /**
   * Their canonical JSON when the text is plain JSON; marked apart when the
   * lenient parser had to repair it (so text after a closed value, say, never
   * agrees with the value alone) or could not read it at all.
   */
  key: string;
}

/** Marks the key of arguments the lenient parser repaired. */
const repaired = "\u0001";

/**
 * Reads a call's JSON arguments: no text is `{}`; plain JSON as `JSON.parse`
 * reads it; anything else leniently.
 *
 * @param text - the whole input text.
 * @returns the reading.
 */
function readArguments(text: string): ArgumentsReading {
  if (text.trim() === "") return { read: { value: {} }, key: "{}" };
  try {
    const value: unknown = JSON.parse(text);
    return { read: { value }, key: canonicalJson(value) };
  } catch {
    // Not plain JSON: read leniently below.
  }
  const parser = createJsonStreamParser();
  try {
    parser.write(text);
    const value = parser.end();
    return { read: { value }, key: `${repaired}${canonicalJson(value)}` };
  } catch {
    return { read: undefined, key: `${unreadable}${text}` };
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
 * Tells a call's outcome to the model.
 *
 * @param entry - the call and what it became.
 * @param outcomes - the outcomes by step id.
 * @returns the tool result.
 */
function toolResult(entry: TurnCall, outcomes: ReadonlyMap<string, StepOutcome>): PlanModelToolResult {
  const { callId, toolName } = entry.call;
  const { stepId } = entry;
  const outcome = stepId === undefined ? undefined : outcomes.get(stepId);
  if (outcome?.status === "succeeded") return { callId, toolName, output: outcome.result ?? null };
  const output =
    stepId === undefined
      ? `Not run: ${(entry.issues ?? []).map((issue) => issue.message).join("; ")}`
      : outcome === undefined
        ? `Not run: no outcome for step "${stepId}"`
        : outcome.status === "failed"
          ? `Failed: ${outcome.error}`
          : `Not run: ${outcome.reason}`;
  return { callId, toolName, output: [output, ...entry.notes].join("; "), isError: true };
}

/**
 * Follows the native calls of one model turn. A call becomes a step (or is
 * dropped with its issues) the moment its arguments are complete: when
 * their JSON object closes in the deltas — providers such as
 * `@ai-sdk/openai` announce every call's end only when the turn ends — or at
 * the call's end or whole part, whichever comes first.
 *
 * The final input (the whole `tool-call` part, else all the streamed text)
 * is what the model wrote, and it wins. Equal to the arguments the step was
 * made from (as canonical JSON; a text the lenient parser had to repair
 * agrees only with a text repaired to the same value), it confirms the
 * step. Different, it supersedes it: the step is withdrawn from the plan
 * (with an `invalid-argument` issue, and so are the turn's steps that
 * reference it), its result answers no call, and the final input is decided
 * anew as the next step. The turn is then not clean, so a runtime runs no
 * side-effecting call of it in either version; a read-only one runs again.
 *
 * @param plan - the plan so far, updated in place.
 * @returns the turn's calls.
 *
 * @example
 * ```ts
 * const calls = createTurnCalls(plan);
 * yield* calls.take({ type: "tool-input-start", callId: "c1", toolName: "weather" });
 * yield* calls.take({ type: "tool-input-delta", callId: "c1", delta: '{"city":"Paris"}' }); // a step event
 * ```
 */
export function createTurnCalls(plan: PlanSoFar): TurnCalls {
  return new TurnCallTable(plan);
}

/** The calls of one turn, by call id in the order the model began them. */
class TurnCallTable implements TurnCalls {
  readonly #plan: PlanSoFar;
  readonly #calls = new Map<string, TurnCall>();
  #dropped = false;

  constructor(plan: PlanSoFar) {
    this.#plan = plan;
  }

  get size(): number {
    return this.#calls.size;
  }

  get dropped(): boolean {
    return this.#dropped;
  }

  *take(part: Exclude<ModelCallPart, { type: "text" }>): Generator<PlannerEvent> {
    const entry = this.#calls.get(part.callId);
    if (part.type === "tool-input-start") {
      this.#begin(part.callId, part.toolName, true);
    } else if (part.type === "tool-input-delta") {
      const closed = entry?.streamed?.write(part.delta);
      if (entry !== undefined && closed !== undefined && entry.decided === undefined)
        yield* this.#decide(entry, { read: { value: closed }, key: canonicalJson(closed) }, entry.streamed?.text ?? "");
    } else if (part.type === "tool-input-end") {
      if (entry?.streamed !== undefined) yield* this.#settle(entry, undefined);
    } else if (part.type === "tool-call") {
      yield* this.#settle(this.#begin(part.callId, part.toolName, false), part.input);
    }
  }

  *finish(): Generator<PlannerEvent> {
    const plan = this.#plan;
    for (const entry of this.#calls.values()) {
      if (entry.streamed === undefined) continue;
      if (entry.decided !== undefined) {
        yield* this.#settle(entry, undefined);
        continue;
      }
      const at = plan.position++;
      const id = `s${at + 1}`;
      const issue = stepIssue(
        "invalid-step",
        at,
        id,
        `Call "${id}" to "${entry.toolName}" was cut off before its arguments closed and was dropped`,
      );
      entry.call.input = entry.streamed.text;
      entry.issues = [issue];
      plan.rejectedIds.add(id);
      this.#dropped = true;
      yield issueEvent(issue);
    }
  }

  stepIds(): string[] {
    return [...this.#calls.values()].flatMap((entry) => (entry.stepId === undefined ? [] : [entry.stepId]));
  }

  toMessages(text: string, outcomes: ReadonlyMap<string, StepOutcome>): PlanModelMessage[] {
    const entries = [...this.#calls.values()];
    return [
      { role: "assistant", text, toolCalls: entries.map((entry) => entry.call) },
      { role: "tool", results: entries.map((entry) => toolResult(entry, outcomes)) },
    ];
  }

  #begin(callId: string, toolName: string, streamed: boolean): TurnCall {
    let entry = this.#calls.get(callId);
    if (entry === undefined) {
      entry = { toolName, call: { callId, toolName, input: "" }, notes: [] };
      if (streamed) entry.streamed = createStreamedCallArguments();
      this.#calls.set(callId, entry);
    }
    return entry;
  }

  /** Makes a call a step, or drops it with its issues, on the arguments read from `input`. */
  *#decide(entry: TurnCall, { read, key }: ArgumentsReading, input: string): Generator<PlannerEvent> {
    const plan = this.#plan;
    const { steps, maxSteps } = plan;
    const at = plan.position++;
    const id = `s${at + 1}`;
    entry.at = at;
    entry.decided = key;
    entry.call.input = read === undefined ? input : read.value;
    const { toolName } = entry;
    let issues: PlanIssue[];
    if (read === undefined) {
      issues = [
        stepIssue(
          "invalid-argument",
          at,
          id,
          `The arguments of call "${id}" to "${toolName}" are not JSON: ${JSON.stringify(input.slice(0, maxQuoteLength))}`,
        ),
      ];
    } else if (steps.length >= maxSteps - 1) {
      issues = [stepIssue("too-many-steps", at, id, `Call "${id}" to "${toolName}" ${keptForReply(maxSteps)}`)];
    } else {
      const result = validateStep(
        { id, type: "tool", name: toolName, arguments: read.value },
        { tools: plan.catalog, steps, index: at, rejectedIds: plan.rejectedIds },
      );
      if (result.step !== undefined && result.issues.length === 0) {
        steps.push(result.step);
        entry.stepId = result.step.id;
        yield { type: "step", step: result.step, index: steps.length - 1 };
        return;
      }
      issues = result.issues;
    }
    plan.rejectedIds.add(id);
    entry.issues = issues;
    this.#dropped = true;
    for (const issue of issues) yield issueEvent(issue);
  }

  /** Takes a call's step back out of the plan, and the steps of the turn that reference it: their results answer no call. */
  *#withdraw(entry: TurnCall, message: string): Generator<PlannerEvent> {
    const plan = this.#plan;
    const stale = entry.stepId;
    if (stale === undefined) return;
    delete entry.stepId;
    const index = plan.steps.findIndex((step) => step.id === stale);
    if (index >= 0) plan.steps.splice(index, 1);
    plan.rejectedIds.add(stale);
    this.#dropped = true;
    entry.notes.push(message);
    const issue = stepIssue("invalid-argument", entry.at ?? plan.position, stale, message, "/arguments");
    entry.issues = [issue];
    yield issueEvent(issue);
    for (const other of this.#calls.values()) {
      const step =
        other.stepId === undefined ? undefined : plan.steps.find((candidate) => candidate.id === other.stepId);
      if (step === undefined || !referencesOf(step).includes(stale)) continue;
      yield* this.#withdraw(
        other,
        `Call "${step.id}" to "${other.toolName}" references call "${stale}", whose arguments were superseded, and was withdrawn`,
      );
    }
  }

  /**
   * Reads a call's final arguments (the whole input, else all the streamed text) and confirms or supersedes its step;
   * the call streams no more.
   */
  *#settle(entry: TurnCall, whole: string | undefined): Generator<PlannerEvent> {
    const input = whole ?? entry.streamed?.text ?? "";
    delete entry.streamed;
    const reading = readArguments(input);
    if (entry.decided === undefined) {
      yield* this.#decide(entry, reading, input);
      return;
    }
    if (reading.key === entry.decided) return;
    const earlier =
      entry.decided.startsWith(unreadable) || entry.decided.startsWith(repaired)
        ? entry.decided.slice(1)
        : entry.decided;
    const stale = entry.stepId;
    delete entry.issues;
    if (stale !== undefined) {
      yield* this.#withdraw(
        entry,
        `Call "${stale}" to "${entry.toolName}" was planned from its streamed arguments ${quote(earlier)}, which differ from its final arguments ${quote(input)}: its result is not the call's answer, and the turn runs none of its side-effecting calls`,
      );
    }
    this.#dropped = true;
    yield* this.#decide(entry, reading, input);
  }
}
