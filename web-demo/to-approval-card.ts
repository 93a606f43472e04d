/**
 * What the demo's approval card shows.
 *
 * @module
 */
import type { ApprovalRequestEvent, RunState } from "../src/events.ts";
import type { ToolDescriptor } from "../src/tools.ts";

/** One argument of a step, for people: its name, its value as text, and the references it still waits on. */
interface ApprovalArgumentLine {
  name: string;
  /** A string as it is; anything else as JSON. */
  value: string;
  /** References (`{{s1.value}}`) inside this argument that are not resolved yet. */
  waitsOn: string[];
}

/** One step the card asks about. */
export interface ApprovalCardStep {
  stepId: string;
  tool: string;
  description: string;
  /** Why the step needs a person's decision. */
  why: string;
  /** The arguments as shown (what an edit starts from). */
  arguments: Record<string, unknown>;
  lines: ApprovalArgumentLine[];
  /** `requested` until decided; `stopped` when the run ended first. */
  status: "requested" | "approved" | "denied" | "stopped";
  /** The decision in words, empty while it waits: "approved", "approved with edited arguments", "denied: not now". */
  outcome: string;
}

/**
 * Where the card stands: `open` (waiting for a decision), `decided` (by
 * the person), `timed-out` (no decision within the request's time, or
 * before the run's deadline) or `ended` (the run ended, or was stopped,
 * before a decision).
 */
type ApprovalCardPhase = "open" | "decided" | "timed-out" | "ended";

/** The approval card of one request. */
export interface ApprovalCard {
  requestId: string;
  phase: ApprovalCardPhase;
  heading: string;
  /** One or two sentences: what to do, or what happened. */
  summary: string;
  steps: ApprovalCardStep[];
}

/** Options of {@link toApprovalCard}. */
export interface ApprovalCardOptions {
  /** The tools' descriptors, for their annotations (MCP defaults when a tool is missing). */
  tools?: readonly ToolDescriptor[];
  /** The person stopped the run (the page stops reading before its `run-end`). */
  stopped?: boolean;
}

/**
 * Formats milliseconds for people: "850 ms", "30 s", "5 min".
 *
 * @param ms - milliseconds.
 * @returns the text.
 */
function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/**
 * Why a tool needs approval, from its annotations (MCP defaults when
 * unknown: not read-only, destructive) and the policy's mode.
 *
 * @param tool - the tool's name.
 * @param descriptor - its descriptor, when the page knows it.
 * @param mode - `plan` or `step`.
 * @returns one sentence.
 */
function explain(tool: string, descriptor: ToolDescriptor | undefined, mode: "plan" | "step"): string {
  const annotations = descriptor?.annotations ?? {};
  const effect =
    annotations.readOnlyHint === true
      ? `${tool} is read-only, but the application asks a person before it runs`
      : annotations.destructiveHint === false
        ? `${tool} changes state, so the application asks a person before it runs`
        : `${tool} changes state and may overwrite or delete data, so the application asks a person before it runs`;
  const scope =
    mode === "plan"
      ? "one approval covers it for this plan"
      : "it asks again if its resolved arguments differ from these";
  return `${effect}; ${scope}.`;
}

/**
 * The first segment of a JSON Pointer, unescaped.
 *
 * @param pointer - e.g. `/text` or `/a~1b/0`.
 * @returns the top-level member's name.
 */
function firstSegment(pointer: string): string {
  return (pointer.split("/")[1] ?? "").replace(/~1/gu, "/").replace(/~0/gu, "~");
}

/**
 * The arguments as lines for people.
 *
 * @param args - the arguments.
 * @param waiting - what still waits on references.
 * @returns one line per top-level argument, in the object's order.
 */
function toLines(
  args: Record<string, unknown>,
  waiting: readonly { pointer: string; reference: string }[],
): ApprovalArgumentLine[] {
  return Object.entries(args).map(([name, value]) => ({
    name,
    value: typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)),
    waitsOn: waiting.filter((entry) => firstSegment(entry.pointer) === name).map((entry) => entry.reference),
  }));
}

/**
 * Builds the approval card of a request from the run's state: the steps it
 * listed with their arguments (readable, and the references they still
 * wait on), why each needs approval, and where the decision stands —
 * decided by the person, denied because no decision came in time, or cut
 * short by the end of the run. A step the state records under a later
 * request is shown with that request's arguments.
 *
 * @param request - the `approval-request` event.
 * @param state - the run's state after it (see `createRunState`).
 * @param options - the tools' descriptors, and whether the person stopped the run.
 * @returns the card.
 *
 * @example
 * ```ts
 * if (event.type === "approval-request") request = event;
 * if (request !== undefined) card.show(toApprovalCard(request, reducer.state, { tools }));
 * ```
 */
export function toApprovalCard(
  request: ApprovalRequestEvent,
  state: RunState,
  options: ApprovalCardOptions = {},
): ApprovalCard {
  const descriptors = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
  const entries = new Map(state.steps.map((entry) => [entry.step.id, entry]));
  const stopped = options.stopped === true && state.status !== "ended";
  const ended = state.status === "ended" || stopped;
  const reason = stopped ? "aborted" : state.reason;
  const steps = request.steps.map((listed): ApprovalCardStep => {
    const approval = entries.get(listed.stepId)?.approval;
    const args = approval?.arguments ?? listed.arguments;
    const waiting = approval?.waiting ?? listed.waiting;
    let status: ApprovalCardStep["status"] = approval?.status ?? "requested";
    let outcome = "";
    if (status === "approved")
      outcome =
        approval?.requestId === request.requestId &&
        JSON.stringify(approval.arguments) !== JSON.stringify(listed.arguments)
          ? "approved with edited arguments"
          : "approved";
    else if (status === "denied")
      outcome =
        approval?.by === "timeout"
          ? `denied: ${approval.reason ?? "no decision in time"}`
          : `denied${approval?.reason === undefined || approval.reason === "" ? "" : `: ${approval.reason}`}`;
    else if (ended) {
      status = "stopped";
      outcome = "not run: the run ended before a decision";
    }
    return {
      stepId: listed.stepId,
      tool: listed.tool,
      description: listed.description,
      why: explain(listed.tool, descriptors.get(listed.tool), listed.mode),
      arguments: args,
      lines: toLines(args, waiting),
      status,
      outcome,
    };
  });
  const count = steps.length;
  const heading = `Approval needed: ${count} step${count === 1 ? "" : "s"} with side effects`;
  const timedOut = steps.some((step) => entries.get(step.stepId)?.approval?.by === "timeout");
  if (timedOut) {
    const wait = request.timeoutMs === undefined ? "in time" : `within ${formatWait(request.timeoutMs)}`;
    return {
      requestId: request.requestId,
      phase: "timed-out",
      heading,
      summary: `The approval timed out: no decision came ${wait}, so the waiting steps were denied and did not run.`,
      steps,
    };
  }
  if (steps.some((step) => step.status === "stopped")) {
    const why = reason === "aborted" ? "was stopped" : `ended (${reason ?? "ended"})`;
    const summary =
      reason === "deadline"
        ? `The approval timed out: the run reached its deadline before a decision, so the waiting steps did not run.`
        : `The run ${why} before a decision: the waiting steps did not run.`;
    return {
      requestId: request.requestId,
      phase: reason === "deadline" ? "timed-out" : "ended",
      heading,
      summary,
      steps,
    };
  }
  if (steps.some((step) => step.status === "requested")) {
    const limit =
      request.timeoutMs === undefined
        ? ""
        : ` Without a decision within ${formatWait(request.timeoutMs)} they are denied.`;
    return {
      requestId: request.requestId,
      phase: "open",
      heading,
      summary: `The plan is complete. ${count === 1 ? "This step waits" : "These steps wait"} for your decision; steps that need none keep running.${limit}`,
      steps,
    };
  }
  const approved = steps.filter((step) => step.status === "approved").map((step) => step.stepId);
  const denied = steps.filter((step) => step.status === "denied").map((step) => step.stepId);
  const parts = [
    approved.length > 0 ? `Approved: ${approved.join(", ")}.` : "",
    denied.length > 0
      ? `Denied: ${denied.join(", ")} (skipped, with the steps that use ${denied.length === 1 ? "its" : "their"} results).`
      : "",
  ];
  return {
    requestId: request.requestId,
    phase: "decided",
    heading,
    summary: parts.filter((part) => part !== "").join(" "),
    steps,
  };
}
