/**
 * The one place that answers what a step may do: start early, start at
 * all (source, approval), be retried, be repeated on a reflector's word,
 * be cached, and how long it may take.
 *
 * @module
 */
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import { clampTimerMs } from "../../shared/clamp-timer-ms.ts";
import { countOf } from "../../shared/count-of.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import type { ApprovalMode } from "../approval-policy.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import { snapshotValue } from "./snapshot-value.ts";
import type { StepSource } from "./step-source.ts";
import type { ApprovalState } from "./step-table.ts";

/** What the policy knows about a step's tool, MCP defaults applied. */
interface StepTraits {
  /** It does not change its environment (`readOnlyHint`, default false). `llm` and `reply` steps are. */
  readOnly: boolean;
  /** Repeating it has no further effect (`idempotentHint`, default false). */
  idempotent: boolean;
  /** It may destroy data (`destructiveHint`, default true; false for read-only tools). */
  destructive: boolean;
  /** It reaches an open world (`openWorldHint`, default true). */
  openWorld: boolean;
}

/** The policy's word on a pending step whose dependencies are met: start it, hold it, or skip it. */
export type SafetyVerdict =
  | { kind: "ready" }
  | { kind: "wait"; reason: "source" | "approval" }
  | { kind: "skip"; code: "unsafe-plan" | "denied"; reason: string };

/** The answers every other module asks for. */
export interface SafetyPolicy {
  /** The step's traits: the application's {@link ToolPolicy} first, then MCP annotations, then MCP's cautious defaults. */
  traitsOf(step: PlanStep): StepTraits;
  /** May it start before the source that wrote it (plan, repair, re-plan patch) finished cleanly? */
  mayStartEarly(step: PlanStep): boolean;
  /**
   * May a call of it be made again after an attempt that failed, timed out
   * or was cut off — and so may have acted? Only when repeating it has no
   * further effect (read-only or idempotent tools, `llm` steps) or the
   * application set the tool's `retries` above 0. Automatic retries and a
   * reflector's `retry` both ask this.
   */
  mayRepeat(step: PlanStep): boolean;
  /** How many retries after a failed attempt: the runtime's allowance ({@link SafetyPolicy.mayRepeat} steps only), lowered (never raised) by the plan's `retries`. */
  retriesOf(step: PlanStep): number;
  /** One attempt's time limit: the runtime's, lowered (never raised) by the plan's `timeoutMs`, in a valid timer range. */
  timeoutOf(step: PlanStep): number;
  /** May its result be reused (read-only tools only)? */
  mayCache(step: PlanStep): boolean;
  /**
   * Does a person approve it first, and how? Only the application's
   * `approval` policy answers; a plan, a model or MCP annotations cannot
   * turn it off. A function policy is asked with the given arguments; one
   * that throws or answers something else counts as `"step"`.
   *
   * @param step - the step.
   * @param args - its arguments: as planned, or resolved.
   * @param resolved - whether `args` are resolved.
   * @returns the mode, or `undefined` for none.
   */
  approvalOf(step: PlanStep, args: Readonly<Record<string, unknown>>, resolved: boolean): ApprovalMode | undefined;
  /** Whether the step's approval is a function of its arguments (so it is asked again with the resolved ones). */
  approvalVaries(step: PlanStep): boolean;
  /**
   * Why the step may not run because of how its source ended, if so: a
   * side-effecting step of an unclean source, and the reply of an unclean
   * source some of whose side-effecting steps were skipped so, or whose
   * planner dropped a step (it would report them done).
   *
   * @param step - the step.
   * @param source - its source.
   * @returns the reason (`unsafe-plan`), or `undefined`.
   */
  unsafeSource(step: PlanStep, source: StepSource): string | undefined;
  /**
   * May a pending step whose dependencies are met start now? In order: an
   * unsafe source skips it ({@link SafetyPolicy.unsafeSource}); a step that
   * needs approval is skipped once denied, else waits for its source to end
   * (it is asked then) and for the decision — even when it is read-only or
   * `eager` is `"all"`; one that may not start early waits until its source
   * ended.
   *
   * @param step - the step.
   * @param source - its source.
   * @param approval - where its approval stands, if it needs one.
   * @returns the verdict.
   */
  verdictOf(step: PlanStep, source: StepSource, approval: ApprovalState | undefined): SafetyVerdict;
}

/** What the policy is built from. */
export interface SafetyPolicySetup {
  registry: ToolRegistry;
  eager: "safe" | "all" | "none";
  /** Retries allowed by default for steps that may be retried. */
  retries: number;
  /** The default time limit of one attempt. */
  timeoutMs: number;
  /** The application's per-tool overrides. */
  tools: Readonly<Record<string, ToolPolicy>>;
}

/**
 * Builds the safety policy of a runtime. The rules:
 *
 * - traits come from the application's per-tool policy, else the tool's MCP
 *   annotations, else MCP's defaults (`readOnlyHint` false, `destructiveHint`
 *   true, `idempotentHint` false, `openWorldHint` true); a plan never sets them;
 * - with `eager: "safe"` only read-only steps start early; `"none"` starts
 *   nothing early; `"all"` starts everything early (the application's choice);
 * - read-only and idempotent steps are retried `retries` times by default,
 *   other tools never (unless the application sets their `retries`), and
 *   a reflector may ask to repeat only the same steps; the plan's `retries`
 *   and `timeoutMs` may only lower the allowance;
 * - a side-effecting step of a source that did not end cleanly never
 *   runs (`unsafe-plan`), nor does that source's reply once such a step
 *   was skipped or the planner dropped a step of it; read-only steps still do;
 * - only read-only tools are cached;
 * - approval comes from the application's `approval` policy alone; a
 *   function that throws or answers an unknown value asks (`"step"`), the
 *   cautious side; it is handed a frozen copy of the arguments.
 *
 * @param setup - registry, eager mode, defaults and overrides.
 * @returns the policy.
 *
 * @example
 * ```ts
 * const policy = createSafetyPolicy({ registry, eager: "safe", retries: 2, timeoutMs: 30_000, tools: {} });
 * policy.mayStartEarly({ id: "s1", type: "tool", name: "send_mail", arguments: {} }); // false
 * ```
 */
export function createSafetyPolicy(setup: SafetyPolicySetup): SafetyPolicy {
  // `llm` and `reply` steps change nothing and may be repeated.
  const modelStep: StepTraits = { readOnly: true, idempotent: true, destructive: false, openWorld: false };
  const traitsByTool = new Map<string, StepTraits>();
  const toolPolicy = (name: string): ToolPolicy | undefined =>
    Object.hasOwn(setup.tools, name) ? setup.tools[name] : undefined;
  const traitsOf = (step: PlanStep): StepTraits => {
    if (step.type !== "tool") return modelStep;
    const known = traitsByTool.get(step.name);
    // Stryker disable next-line ConditionalExpression: the cache only saves work; computing the traits again gives the same.
    if (known !== undefined) return known;
    const annotations = setup.registry.get(step.name)?.annotations;
    const override = toolPolicy(step.name);
    const readOnly = override?.readOnly ?? annotations?.readOnlyHint === true;
    const traits: StepTraits = {
      readOnly,
      idempotent: readOnly || (override?.idempotent ?? annotations?.idempotentHint === true),
      destructive: !readOnly && annotations?.destructiveHint !== false,
      openWorld: annotations?.openWorldHint !== false,
    };
    // Stryker disable next-line all: the cache only saves work; computing the traits again gives the same.
    traitsByTool.set(step.name, traits);
    return traits;
  };
  const mayStartEarly = (step: PlanStep): boolean => {
    if (setup.eager === "all") return true;
    if (setup.eager === "none") return false;
    return traitsOf(step).readOnly;
  };
  const unsafeSource = (step: PlanStep, source: StepSource): string | undefined => {
    if (source.state !== "unclean") return undefined;
    if (step.type === "reply") {
      const withheld = source.withheld ?? 0;
      const dropped = source.dropped ?? 0;
      if (withheld > 0)
        return `It reports on a plan whose ${countOf(withheld, "side-effecting step")} did not run: the ${sourceName(source)} did not finish cleanly`;
      // A step the planner dropped may be the very side effect the reply reports done.
      if (dropped > 0)
        return `It reports on a plan that lost ${countOf(dropped, "step")}: the ${sourceName(source)} did not finish cleanly`;
      return undefined;
    }
    return traitsOf(step).readOnly
      ? undefined
      : `It has side effects and the ${sourceName(source)} did not finish cleanly`;
  };
  return {
    traitsOf,
    mayStartEarly,
    mayRepeat(step) {
      if (traitsOf(step).idempotent) return true;
      // Stryker disable next-line ConditionalExpression: `llm` and `reply` steps are idempotent and returned above.
      const retries = step.type === "tool" ? toolPolicy(step.name)?.retries : undefined;
      return typeof retries === "number" && retries > 0;
    },
    retriesOf(step) {
      const override = step.type === "tool" ? toolPolicy(step.name) : undefined;
      const allowed = override?.retries ?? (traitsOf(step).idempotent ? setup.retries : 0);
      const asked = step.retries;
      return typeof asked === "number" && Number.isInteger(asked) && asked >= 0 ? Math.min(asked, allowed) : allowed;
    },
    timeoutOf(step) {
      const override = step.type === "tool" ? toolPolicy(step.name) : undefined;
      const allowed = clampTimerMs(override?.timeoutMs ?? setup.timeoutMs, setup.timeoutMs);
      const asked = step.timeoutMs;
      return typeof asked === "number" && asked > 0 ? clampTimerMs(Math.min(asked, allowed), allowed) : allowed;
    },
    mayCache(step) {
      if (step.type !== "tool") return false;
      return traitsOf(step).readOnly && toolPolicy(step.name)?.cache !== false;
    },
    approvalOf(step, args, resolved) {
      if (step.type !== "tool") return undefined;
      const rule = toolPolicy(step.name)?.approval;
      if (rule === undefined) return undefined;
      if (typeof rule !== "function") return rule === "plan" ? "plan" : "step";
      let answer: unknown;
      try {
        // A copy: what the function does to it cannot reach the call.
        answer = rule({
          tool: step.name,
          stepId: step.id,
          arguments: snapshotValue(args, { freeze: true, what: `The arguments of step "${step.id}"` }) as Record<
            string,
            unknown
          >,
          resolved,
        });
      } catch {
        // Stryker disable next-line StringLiteral: any answer but "none", undefined and "plan" asks per step.
        answer = "step";
      }
      if (answer === "none" || answer === undefined) return undefined;
      return answer === "plan" ? "plan" : "step";
    },
    approvalVaries(step) {
      return step.type === "tool" && typeof toolPolicy(step.name)?.approval === "function";
    },
    unsafeSource,
    verdictOf(step, source, approval) {
      const unsafe = unsafeSource(step, source);
      if (unsafe !== undefined) return { kind: "skip", code: "unsafe-plan", reason: unsafe };
      if (approval !== undefined && approval.status !== "approved") {
        if (approval.status === "denied")
          return { kind: "skip", code: "denied", reason: approval.reason ?? "It was denied" };
        return { kind: "wait", reason: source.state === "streaming" ? "source" : "approval" };
      }
      if (step.type === "reply" || source.state !== "streaming" || mayStartEarly(step)) return { kind: "ready" };
      return { kind: "wait", reason: "source" };
    },
  };
}

/**
 * A source in words.
 *
 * @param source - the source.
 * @returns "plan" or "re-plan N patch".
 */
function sourceName(source: StepSource): string {
  return source.kind === "plan" ? "plan" : `re-plan ${source.attempt} patch`;
}
