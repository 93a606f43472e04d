/**
 * What `AgentRuntime` accepts as options, as a schema.
 *
 * @module
 */
import * as v from "valibot";
import { PlankitError } from "../errors/plankit-error.ts";
import { describeValue } from "../shared/describe-value.ts";

/**
 * A numeric option: a number (`Infinity` allowed) of at least `minimum`, an integer when asked.
 *
 * @param minimum - the least allowed value.
 * @param integer - whether it must be an integer.
 * @returns the schema.
 */
function count(minimum: number, integer: boolean) {
  const expected = `${integer ? "an integer" : "a number"} of at least ${minimum}`;
  return v.optional(
    v.pipe(
      v.number(expected),
      v.custom<number>(
        (value) =>
          (value as number) >= minimum && (!integer || Number.isInteger(value) || value === Number.POSITIVE_INFINITY),
        expected,
      ),
    ),
  );
}

const functionOf = (what: string) =>
  v.custom<(...args: never[]) => unknown>((value) => typeof value === "function", what);

const ToolPolicySchema = v.object(
  {
    retries: count(0, true),
    timeoutMs: count(1, false),
    approval: v.optional(
      v.custom(
        (value) => value === "plan" || value === "step" || typeof value === "function",
        '"plan", "step" or a function',
      ),
    ),
  },
  "an object",
);

const RuntimeOptionsSchema = v.object({
  planner: v.object({ stream: functionOf("an object with a stream() method") }, "an object with a stream() method"),
  registry: v.object({ call: functionOf("a ToolRegistry") }, "a ToolRegistry"),
  eager: v.optional(v.picklist(["safe", "all", "none"], '"safe", "all" or "none"')),
  maxConcurrency: count(1, true),
  timeoutMs: count(1, false),
  retries: count(0, true),
  maxReplans: count(0, true),
  reflectionRetries: count(0, true),
  memoryTimeoutMs: count(1, false),
  approvalTimeoutMs: count(1, false),
  modelTimeouts: v.optional(v.object({ idleMs: count(1, false), totalMs: count(1, false) }, "an object")),
  budget: v.optional(
    v.object(
      {
        modelCalls: count(0, true),
        toolCalls: count(0, true),
        replans: count(0, true),
        steps: count(0, true),
        deadlineMs: count(0, false),
      },
      "an object",
    ),
  ),
  policy: v.optional(
    v.pipe(
      v.custom<object>(
        (value) => typeof value === "object" && value !== null && !Array.isArray(value),
        "an object of tool policies by tool name",
      ),
      v.record(v.string(), ToolPolicySchema),
    ),
  ),
  executeStep: v.optional(functionOf("a function")),
  replyStreaming: v.optional(v.picklist(["safe", "early"], '"safe" or "early"')),
});

/**
 * Checks `AgentRuntime`'s options against their schema: the planner and
 * registry, every number's range, the enumerations, each tool's policy.
 * Options the schema does not name are not checked.
 *
 * @param options - what the application passed.
 * @throws PlankitError `invalid-options` naming the first wrong option, what it must be, and the value found, e.g. `Option policy.send.approval must be "plan", "step" or a function, got "always"`.
 *
 * @example
 * ```ts
 * checkRuntimeOptions({ planner, registry, maxConcurrency: 0 }); // throws: Option maxConcurrency must be an integer of at least 1, got 0
 * ```
 */
export function checkRuntimeOptions(options: unknown): void {
  if (typeof options !== "object" || options === null)
    throw new PlankitError("invalid-options", `The options must be an object, got ${describeValue(options)}`);
  const result = v.safeParse(RuntimeOptionsSchema, options, { abortEarly: true });
  if (result.success) return;
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((item) => String(item.key)).join(".");
  throw new PlankitError(
    "invalid-options",
    `Option ${path} must be ${issue.message}, got ${describeValue(issue.input)}`,
  );
}
