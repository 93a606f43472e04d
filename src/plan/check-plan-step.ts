/**
 * Checking a candidate step against the step schemas without running them.
 *
 * @module
 */
import { isRecord } from "../shared/is-record.ts";
import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import type { PlanStep } from "./plan-step-schema.ts";
import {
  ARGUMENTS_MESSAGE,
  DEPENDS_ON_MESSAGE,
  DESCRIPTION_MESSAGE,
  ID_EMPTY_MESSAGE,
  ID_PATTERN_MESSAGE,
  ID_RESERVED_MESSAGE,
  ID_TYPE_MESSAGE,
  NAME_EMPTY_MESSAGE,
  NAME_TYPE_MESSAGE,
  PROMPT_EMPTY_MESSAGE,
  PROMPT_TYPE_MESSAGE,
  RETRIES_INTEGER_MESSAGE,
  RETRIES_NEGATIVE_MESSAGE,
  RETRIES_TYPE_MESSAGE,
  STEP_ID_PATTERN,
  TEXT_EMPTY_MESSAGE,
  TEXT_TYPE_MESSAGE,
  TIMEOUT_FINITE_MESSAGE,
  TIMEOUT_POSITIVE_MESSAGE,
  TIMEOUT_TYPE_MESSAGE,
  TYPE_MESSAGE,
} from "./step-messages.ts";

/** One thing wrong with a candidate step. */
interface StepProblem {
  /** The keys from the step to the offending value. */
  path: (string | number)[];
  /** What the value must be. */
  message: string;
  /** The offending value. */
  input: unknown;
}

/** The result of {@link checkPlanStep}. */
export type PlanStepCheck = { ok: true; step: PlanStep } | { ok: false; problems: StepProblem[] };

/** Checks one field, pushing its problems; returns the field's output value. */
type FieldCheck = (value: unknown, path: (string | number)[], problems: StepProblem[]) => unknown;

/** A field's rules, each a message and the test its value must pass; a failing first rule ends the check. */
function rules(...list: [message: string, passes: (value: never) => boolean][]): FieldCheck {
  return (value, path, problems) => {
    for (const [index, [message, passes]] of list.entries()) {
      if ((passes as (value: unknown) => boolean)(value)) continue;
      problems.push({ path, message, input: value });
      if (index === 0) break;
    }
    return value;
  };
}

const isString = (value: unknown): boolean => typeof value === "string";
/** The rules of a text field: a string, and not empty. */
const text = (type: string, empty: string): [string, (value: never) => boolean][] => [
  [type, isString],
  [empty, (value: string) => value.length > 0],
];
const checkId = rules(
  ...text(ID_TYPE_MESSAGE, ID_EMPTY_MESSAGE),
  [ID_PATTERN_MESSAGE, (value: string) => STEP_ID_PATTERN.test(value)],
  [ID_RESERVED_MESSAGE, (value) => value !== CONTEXT_REFERENCE_ROOT],
);
const isNumber = (value: unknown): boolean => typeof value === "number" && !Number.isNaN(value);

/** The policy fields every step may carry, in the order the step schemas list them. */
const policyFields: [string, FieldCheck][] = [
  [
    "dependsOn",
    (value, path, problems) => {
      if (!Array.isArray(value)) return rules([DEPENDS_ON_MESSAGE, () => false])(value, path, problems);
      return value.map((item, index) => checkId(item, [...path, index], problems));
    },
  ],
  ["description", rules([DESCRIPTION_MESSAGE, isString])],
  [
    "retries",
    rules(
      [RETRIES_TYPE_MESSAGE, isNumber],
      [RETRIES_INTEGER_MESSAGE, Number.isInteger],
      [RETRIES_NEGATIVE_MESSAGE, (value: number) => value >= 0],
    ),
  ],
  [
    "timeoutMs",
    rules(
      [TIMEOUT_TYPE_MESSAGE, isNumber],
      [TIMEOUT_POSITIVE_MESSAGE, (value: number) => value > 0],
      [TIMEOUT_FINITE_MESSAGE, Number.isFinite],
    ),
  ],
];

/** The required fields of each step type after `id` and `type`. */
const typeFields: Record<PlanStep["type"], [string, FieldCheck][]> = {
  tool: [
    ["name", rules(...text(NAME_TYPE_MESSAGE, NAME_EMPTY_MESSAGE))],
    ["arguments", rules([ARGUMENTS_MESSAGE, isRecord])],
  ],
  llm: [["prompt", rules(...text(PROMPT_TYPE_MESSAGE, PROMPT_EMPTY_MESSAGE))]],
  reply: [["text", rules(...text(TEXT_TYPE_MESSAGE, TEXT_EMPTY_MESSAGE))]],
};

/**
 * Checks a candidate step as `v.safeParse(PlanStepSchema, candidate)` does —
 * the same problems, in the same order, with the same messages — without
 * the schema library on the path every plan takes. The step has its fields
 * in schema order and nothing else; `dependsOn` is a new array.
 *
 * @param candidate - a step object.
 * @returns `{ ok: true, step }`, or `{ ok: false, problems }`.
 *
 * @example
 * ```ts
 * checkPlanStep({ id: "s1", type: "reply", text: "" });
 * // { ok: false, problems: [{ path: ["text"], message: "the reply text must not be empty", input: "" }] }
 * ```
 */
export function checkPlanStep(candidate: Record<string, unknown>): PlanStepCheck {
  const type = candidate["type"];
  if (typeof type !== "string" || !Object.hasOwn(typeFields, type)) {
    return { ok: false, problems: [{ path: ["type"], message: TYPE_MESSAGE, input: type }] };
  }
  const problems: StepProblem[] = [];
  const step: Record<string, unknown> = {};
  const required: [string, FieldCheck][] = [
    ["id", checkId],
    ["type", (value) => value],
    ...typeFields[type as PlanStep["type"]],
  ];
  for (const [key, check] of required) {
    if (key in candidate) step[key] = check(candidate[key], [key], problems);
    else
      problems.push({
        path: [key],
        message: `Invalid key: Expected "${key}" but received undefined`,
        input: undefined,
      });
  }
  for (const [key, check] of policyFields) {
    if (!(key in candidate)) continue;
    const value = candidate[key];
    step[key] = value === undefined ? undefined : check(value, [key], problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, step: step as PlanStep };
}
