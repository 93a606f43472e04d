/**
 * The one place that answers what a step may do.
 *
 * @module
 */
import type { PlanStep } from "../../plan/plan-step-schema.ts";
import type { ToolRegistry } from "../../tools/tool-registry.ts";
import type { ApprovalMode } from "../approval-policy.ts";
import type { ToolPolicy } from "../tool-policy.ts";
import { clampTimerMs } from "../../shared/clamp-timer-ms.ts";
import { snapshotValue } from "./snapshot-value.ts";

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

const modelStep: StepTraits = { readOnly: true, idempotent: true, destructive: false, openWorld: false };

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
  const traitsByTool = new Map<string, StepTraits>();
  const toolPolicy = (name: string): ToolPolicy | undefined => (Object.hasOwn(setup.tools, name) ? setup.tools[name] : undefined);
  const traitsOf = (step: PlanStep): StepTraits => {
    if (step.type !== "tool") return modelStep;
    const known = traitsByTool.get(step.name);
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
    traitsByTool.set(step.name, traits);
    return traits;
  };
  return {
    traitsOf,
    mayStartEarly(step) {
      if (setup.eager === "all") return true;
      if (setup.eager === "none") return false;
      return traitsOf(step).readOnly;
    },
    mayRepeat(step) {
      if (traitsOf(step).idempotent) return true;
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
        answer = rule({ tool: step.name, stepId: step.id, arguments: snapshotValue(args, { freeze: true, what: `The arguments of step "${step.id}"` }) as Record<string, unknown>, resolved });
      } catch {
        answer = "step";
      }
      if (answer === "none" || answer === undefined) return undefined;
      return answer === "plan" ? "plan" : "step";
    },
    approvalVaries(step) {
      return step.type === "tool" && typeof toolPolicy(step.name)?.approval === "function";
    },
  };
}
