/**
 * What `AgentRuntime` accepts as options, as a table of checks.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { closestName } from "../shared/closest-name.ts";
import { describeValue } from "../shared/describe-value.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import type { ToolPolicy } from "./tool-policy.ts";

/** What is wrong with one option: where it sits, what it must be, and the value found (or a message of its own). */
interface OptionProblem {
  path: string;
  expected: string;
  value: unknown;
  message?: string;
}

/** Checks the value at `path`; returns the first problem, if any. */
type OptionCheck = (value: unknown, path: string) => OptionProblem | undefined;

/**
 * A check of one value.
 *
 * @param passes - the test.
 * @param expected - what the value must be.
 * @returns the check.
 */
function must(passes: (value: unknown) => boolean, expected: string): OptionCheck {
  return (value, path) => (passes(value) ? undefined : { path, expected, value });
}

/**
 * A check that lets `undefined` pass.
 *
 * @param check - the check of a value that is there.
 * @returns the check.
 */
function optional(check: OptionCheck): OptionCheck {
  return (value, path) => (value === undefined ? undefined : check(value, path));
}

/**
 * A numeric option: a number (`Infinity` allowed) of at least `minimum`, an integer when asked.
 *
 * @param minimum - the smallest value.
 * @param integer - whether it must be an integer.
 * @returns the check.
 */
function count(minimum: number, integer: boolean): OptionCheck {
  return optional(
    must(
      (value) =>
        typeof value === "number" &&
        value >= minimum &&
        (!integer || Number.isInteger(value) || value === Number.POSITIVE_INFINITY),
      `${integer ? "an integer" : "a number"} of at least ${minimum}`,
    ),
  );
}

/**
 * An object (arrays and functions' prototypes aside, any object) whose named fields pass their checks, in order.
 *
 * @param fields - the checks by field name.
 * @param expected - what the value must be.
 * @param closed - whether a field it does not name is refused (a misspelled one would be ignored unseen).
 * @returns the check.
 */
function object(fields: Record<string, OptionCheck>, expected: string, closed = false): OptionCheck {
  return (value, path) => {
    if (typeof value !== "object" || value === null) return { path, expected, value };
    const names = Object.keys(fields);
    const unknown = closed ? Object.keys(value).find((key) => !names.includes(key)) : undefined;
    if (unknown !== undefined) {
      const suggestion = closestName(unknown, names);
      const hint = suggestion === undefined ? `the fields are ${names.join(", ")}` : `did you mean "${suggestion}"?`;
      return {
        path,
        expected,
        value,
        message: `Option ${path.slice(1)} has no field ${JSON.stringify(unknown)}; ${hint}`,
      };
    }
    for (const [key, check] of Object.entries(fields)) {
      const problem = check((value as Record<string, unknown>)[key], `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

const isFunction = (value: unknown): boolean => typeof value === "function";
const aFunction = optional(must(isFunction, "a function"));
const aBoolean = optional(must((value) => typeof value === "boolean", "true or false"));

/**
 * An object with the named methods, or `false` when `orFalse` (a store or cache turned off).
 *
 * @param methods - the method names.
 * @param expected - what the value must be.
 * @param orFalse - whether `false` is allowed.
 * @returns the check.
 */
function withMethods(methods: readonly string[], expected: string, orFalse = false): OptionCheck {
  return optional(
    must(
      (value) =>
        (orFalse && value === false) ||
        (typeof value === "object" &&
          value !== null &&
          methods.every((name) => isFunction((value as Record<string, unknown>)[name]))),
      expected,
    ),
  );
}

/** Each tool's policy. */
const toolPolicy = object(
  {
    retries: count(0, true),
    timeoutMs: count(1, false),
    approval: optional(
      must((value) => value === "plan" || value === "step" || isFunction(value), '"plan", "step" or a function'),
    ),
    // A string "false" would read as true: a tool with side effects would start early and be cached.
    readOnly: aBoolean,
    idempotent: aBoolean,
    cache: aBoolean,
  },
  "an object",
  true,
);

const policies = "an object of tool policies by tool name";

/** Every option, in the order they are checked. */
const optionChecks: Record<string, OptionCheck> = {
  planner: object({ stream: must(isFunction, "an object with a stream() method") }, "an object with a stream() method"),
  registry: object({ call: must(isFunction, "a ToolRegistry") }, "a ToolRegistry"),
  eager: optional(must((value) => value === "safe" || value === "all" || value === "none", '"safe", "all" or "none"')),
  maxConcurrency: count(1, true),
  timeoutMs: count(1, false),
  retries: count(0, true),
  maxReplans: count(0, true),
  reflectionRetries: count(0, true),
  memoryTimeoutMs: count(1, false),
  approvalTimeoutMs: count(1, false),
  modelTimeouts: optional(object({ idleMs: count(1, false), totalMs: count(1, false) }, "an object", true)),
  budget: optional(
    object(
      {
        modelCalls: count(0, true),
        toolCalls: count(0, true),
        replans: count(0, true),
        steps: count(0, true),
        deadlineMs: count(0, false),
      },
      "an object",
      true,
    ),
  ),
  policy: optional((value, path) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { path, expected: policies, value };
    for (const key of Object.keys(value)) {
      if (key === "__proto__" || key === "prototype" || key === "constructor") continue;
      const problem = toolPolicy((value as Record<string, unknown>)[key], `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }),
  executeStep: aFunction,
  replyStreaming: optional(must((value) => value === "safe" || value === "early", '"safe" or "early"')),
  integrate: optional(must((value) => value === "model" || value === "template", '"model" or "template"')),
  random: aFunction,
  sleep: aFunction,
  idGenerator: aFunction,
};

/** The options whose values are objects of the application's (checked after the others). */
const objectChecks: Record<string, OptionCheck> = {
  memory: withMethods(["read", "write"], "false or an object with read() and write() methods", true),
  reflector: withMethods(["reflect"], "an object with a reflect() method"),
  backoff: optional(
    object(
      {
        initialMs: count(0, false),
        factor: count(1, false),
        maxMs: count(0, false),
        jitter: optional(
          must((value) => typeof value === "number" && value >= 0 && value <= 1, "a number from 0 to 1"),
        ),
      },
      "an object",
      true,
    ),
  ),
  cache: withMethods(["get", "set"], "false or an object with get() and set() methods", true),
  clock: withMethods(["now", "setTimeout", "clearTimeout"], "an object with now(), setTimeout() and clearTimeout()"),
};

/** The names of `AgentRuntime`'s options: the table's, then `profile` and `model` (values not checked) among the objects checked after it. */
export const runtimeOptionNames: readonly string[] = [
  ...Object.keys(optionChecks),
  ..."profile memory reflector model backoff cache clock".split(" "),
];

/**
 * Checks `AgentRuntime`'s options: no key that names no option, the
 * planner and registry, every number's range, the enumerations, the
 * functions, each tool's policy (its traits booleans), no field a tool
 * policy, the budget, the timeouts or the backoff does not have (a
 * misspelled `approval` would let a tool run unapproved), and the memory,
 * reflector, cache and clock objects.
 *
 * @param options - what the application passed.
 * @throws PlankitError `invalid-options` naming an unknown key and the closest option, or the first wrong option, what it must be, and the value found, e.g. `Option policy.send.approval must be "plan", "step" or a function, got "always"`.
 *
 * @example
 * ```ts
 * checkRuntimeOptions({ planner, registry, maxConcurrency: 0 }); // throws: Option maxConcurrency must be an integer of at least 1, got 0
 * ```
 */
export function checkRuntimeOptions(options: unknown): void {
  if (typeof options !== "object" || options === null)
    throw new PlankitError("invalid-options", `The options must be an object, got ${describeValue(options)}`);
  checkOptionKeys(options, runtimeOptionNames, "AgentRuntime");
  const problem = object({ ...optionChecks, ...objectChecks }, "")(options, "");
  if (problem !== undefined) {
    throw new PlankitError(
      "invalid-options",
      problem.message ??
        `Option ${problem.path.slice(1)} must be ${problem.expected}, got ${describeValue(problem.value)}`,
    );
  }
}

/**
 * Checks that each tool the `policy` option names is registered, when a run
 * starts (tools may be registered after the runtime is built): a policy
 * under a misspelled name would apply to no call, so a tool meant to wait
 * for approval would run without it.
 *
 * @param policy - the per-tool policy.
 * @param registry - the tools.
 * @throws PlankitError `invalid-options` naming the key and the closest registered tool.
 *
 * @example
 * ```ts
 * checkPolicyTools({ send_mail: { approval: "plan" } }, registry); // throws: Option policy names tool "send_mail", which is not registered, … did you mean "send_email"?
 * ```
 */
export function checkPolicyTools(policy: Readonly<Record<string, ToolPolicy>>, registry: ToolRegistry): void {
  for (const name of Object.keys(policy)) {
    if (registry.has(name)) continue;
    const suggestion = closestName(
      name,
      registry.list().map((tool) => tool.name),
    );
    throw new PlankitError(
      "invalid-options",
      `Option policy names tool ${JSON.stringify(name)}, which is not registered: its rules (approval among them) would apply to no call${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`,
    );
  }
}

/** The options of one run. */
const runOptionChecks: Record<string, OptionCheck> = {
  // Anything else could not be listened to: the run would never start, nor end.
  signal: optional(
    must(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as { aborted?: unknown }).aborted === "boolean" &&
        isFunction((value as { addEventListener?: unknown }).addEventListener),
      "an AbortSignal",
    ),
  ),
  context: optional(
    must((value) => typeof value === "object" && value !== null && !Array.isArray(value), "an object of values by key"),
  ),
  elapsedMs: count(0, false),
};

/**
 * Checks the options of `AgentRuntime.run`: no key that names no option,
 * an `AbortSignal`, a context object, a time spent that is a number.
 *
 * @param options - what the application passed.
 * @throws PlankitError `invalid-options` naming an unknown key and the closest option, or the wrong option, what it must be and the value found, e.g. `Option signal of run must be an AbortSignal, got {}`.
 *
 * @example
 * ```ts
 * checkRunOptions({ elapsedMs: Number.NaN }); // throws: Option elapsedMs of run must be a number of at least 0, got NaN
 * ```
 */
export function checkRunOptions(options: unknown): void {
  checkOptionKeys(options, Object.keys(runOptionChecks), "run");
  const problem = object(runOptionChecks, "")(options, "");
  if (problem !== undefined) {
    throw new PlankitError(
      "invalid-options",
      `Option ${problem.path.slice(1)} of run must be ${problem.expected}, got ${describeValue(problem.value)}`,
    );
  }
}

/**
 * Checks the options of a factory of the runtime's (`createMemoryCache`,
 * `createMemoryStore`): no key that names no option, each number in its
 * range, each function a function — a `NaN` time to live would keep a
 * cache's entries for ever, and a misspelled limit would go unseen.
 *
 * @param options - what the application passed.
 * @param owner - the factory's name, for the message.
 * @param fields - per option, the smallest number and whether it is an integer, or `"function"`.
 * @throws PlankitError `invalid-options` naming the option, what it must be and the value found.
 *
 * @example
 * ```ts
 * checkFactoryOptions({ ttlMs: Number.NaN }, "createMemoryCache", { ttlMs: [0, false] }); // throws: Option ttlMs of createMemoryCache must be a number of at least 0, got NaN
 * ```
 */
export function checkFactoryOptions(
  options: unknown,
  owner: string,
  fields: Record<string, readonly [minimum: number, integer: boolean] | "function">,
): void {
  checkOptionKeys(options, Object.keys(fields), owner);
  const checks: Record<string, OptionCheck> = {};
  for (const [key, field] of Object.entries(fields)) checks[key] = field === "function" ? aFunction : count(...field);
  const problem = object(checks, "")(options, "");
  if (problem !== undefined) {
    throw new PlankitError(
      "invalid-options",
      `Option ${problem.path.slice(1)} of ${owner} must be ${problem.expected}, got ${describeValue(problem.value)}`,
    );
  }
}
