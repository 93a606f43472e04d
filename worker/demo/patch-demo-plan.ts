/**
 * The offline demo model's re-planning rules.
 *
 * @module
 */
import type { PlanStep } from "../../src/index.ts";
import { describeStepResult } from "./describe-step-result.ts";

/** A step as a re-plan prompt lists it: the step, with its result or error. */
export type ListedStep = {
  id: string;
  type: string;
  name?: string;
  arguments?: Record<string, unknown>;
  prompt?: string;
  text?: string;
  dependsOn?: string[];
  result?: unknown;
  error?: string;
};

/** What {@link patchDemoPlan} needs. */
export interface DemoPatchInput {
  /** The steps that ran, with their results. */
  completed: readonly ListedStep[];
  /** The steps that failed, with their errors. */
  failed: readonly ListedStep[];
  /** The steps that did not run. */
  remaining: readonly ListedStep[];
  /** The names of the tools the patch may use. */
  tools: ReadonlySet<string>;
  /**
   * The most steps in the patch, the reply included.
   *
   * @defaultValue `6`
   */
  maxSteps?: number;
}

const referencePattern = /\{\{\s*([^\s.{}[\]]+)/gu;

/**
 * The step ids a step refers to, by reference or `dependsOn`.
 *
 * @param step - the step.
 * @returns the ids.
 */
function referencedIds(step: ListedStep): string[] {
  const text = JSON.stringify([step.arguments ?? null, step.prompt ?? null, step.text ?? null]);
  return [...[...text.matchAll(referencePattern)].map((match) => match[1] ?? ""), ...(step.dependsOn ?? [])];
}

/**
 * Renames the references of a value.
 *
 * @param value - arguments, a prompt or a text.
 * @param names - old id → new id.
 * @returns the value with references renamed.
 */
function renameReferences<T>(value: T, names: ReadonlyMap<string, string>): T {
  if (typeof value === "string")
    return value.replace(referencePattern, (whole, id: string) =>
      names.has(id) ? whole.replace(id, names.get(id) ?? id) : whole,
    ) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => renameReferences(item, names)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renameReferences(item, names)])) as T;
  }
  return value;
}

/**
 * Writes the patch the demo model answers a re-plan with. Completed steps
 * are kept and quoted by reference. A failed `slow_lookup` is replaced by
 * the same `kb_lookup`; a lookup of something the knowledge base does not
 * know is not retried but reported. Remaining steps are carried over under
 * new ids when everything they refer to still exists (a replaced step's
 * references move to its replacement); the others are dropped. The reply is
 * the remaining reply when it survives, else one quoting what is known
 * (keeping the remaining reply's closing "Not done: …", which quotes no
 * step), and it says what could not be done.
 *
 * @param input - the completed, failed and remaining steps, the tools and the step limit.
 * @returns the patch: new steps with ids no listed step uses, ending with a reply.
 *
 * @example
 * ```ts
 * patchDemoPlan({ completed: [], failed: [{ id: "s1", type: "tool", name: "slow_lookup", arguments: { query: "height of Mount Fuji" }, error: "timed out" }], remaining: [], tools: new Set(["kb_lookup"]) });
 * // [{ id: "s2", type: "tool", name: "kb_lookup", … }, { id: "s3", type: "reply", … }]
 * ```
 */
export function patchDemoPlan(input: DemoPatchInput): PlanStep[] {
  const maxSteps = Math.max(1, input.maxSteps ?? 6);
  const listed = [...input.completed, ...input.failed, ...input.remaining];
  const taken = new Set(listed.map((step) => step.id));
  let counter = listed.reduce((highest, step) => Math.max(highest, Number(/^s(\d+)$/u.exec(step.id)?.[1] ?? 0)), 0);
  const nextId = (): string => {
    let id: string;
    do id = `s${++counter}`;
    while (taken.has(id));
    taken.add(id);
    return id;
  };
  const patch: PlanStep[] = [];
  const names = new Map<string, string>();
  const known = new Set(input.completed.map((step) => step.id));
  const notes: string[] = [];
  const room = (): boolean => patch.length < maxSteps - 1;

  for (const failed of input.failed) {
    const query = typeof failed.arguments?.["query"] === "string" ? failed.arguments["query"] : undefined;
    const notFound = /no fact/iu.test(failed.error ?? "");
    if (failed.name === "slow_lookup" && !notFound && query !== undefined && input.tools.has("kb_lookup") && room()) {
      const id = nextId();
      patch.push({ id, type: "tool", name: "kb_lookup", arguments: { query } });
      names.set(failed.id, id);
      known.add(id);
      notes.push(`The archive lookup of "${query}" failed, so I used the regular knowledge base instead.`);
    } else if (notFound && query !== undefined) {
      notes.push(`The knowledge base has no fact about "${query}".`);
    } else {
      notes.push(
        `Step ${failed.id}${failed.name === undefined ? "" : ` (${failed.name})`} failed: ${failed.error ?? "unknown error"}.`,
      );
    }
  }

  let reply: PlanStep | undefined;
  let notDone: string | undefined;
  for (const step of input.remaining) {
    const resolvable = referencedIds(step).every((id) => id === "context" || known.has(id) || names.has(id));
    if (step.type === "reply") {
      if (resolvable && step.text !== undefined)
        reply = { id: "", type: "reply", text: renameReferences(step.text, names) };
      // What the plan already said it would not do quotes no step; it stays in the new reply.
      else notDone = /(?:^|\s)((?:Not done:|未完成：)[^{}]*)$/u.exec(step.text ?? "")?.[1];
      continue;
    }
    if (!resolvable || !room()) {
      if (step.type === "tool") notes.push(`I skipped ${step.name ?? "a step"}, which needed a result I do not have.`);
      continue;
    }
    const id = nextId();
    const carried = renameReferences({ ...step, id }, names) as Record<string, unknown>;
    delete carried["result"];
    delete carried["error"];
    patch.push(carried as PlanStep);
    names.set(step.id, id);
    known.add(id);
  }

  let text: string;
  if (reply !== undefined && reply.type === "reply") {
    text = [...notes, reply.text].join(" ");
  } else {
    const quoted = [...input.completed, ...patch.map((step) => step as ListedStep)]
      .map((step) => describeStepResult(step))
      .filter((part): part is string => part !== undefined);
    text =
      [...quoted, ...notes, ...(notDone === undefined ? [] : [notDone])].join(" ") ||
      "I could not complete the request with the tools I have.";
  }
  patch.push({ id: nextId(), type: "reply", text });
  return patch;
}
