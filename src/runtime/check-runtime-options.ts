/**
 * What `AgentRuntime` accepts as options, as a table of checks.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import { checkOptionKeys } from "../shared/check-option-keys.ts";
import { closestName } from "../shared/closest-name.ts";
import { describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
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
 * A check of one value, which may be left out unless `required`.
 *
 * @param passes - the test.
 * @param expected - what the value must be.
 * @param required - whether `undefined` fails too.
 * @returns the check.
 *
 * @example
 * ```ts
 * const aString = must((value) => typeof value === "string", "a string");
 * ```
 */
export function must(passes: (value: unknown) => boolean, expected: string, required = false): OptionCheck {
  return (value, path) => ((value === undefined && !required) || passes(value) ? undefined : { path, expected, value });
}

/**
 * Choices in words: `"a", "b" or c`.
 *
 * @param words - the choices, each as it is written.
 * @returns the text.
 */
function either(words: readonly string[]): string {
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/**
 * An option that is one of the given strings.
 *
 * @param values - the strings allowed.
 * @returns the check.
 */
function oneOf(...values: string[]): OptionCheck {
  return must((value) => values.includes(value as string), either(values.map((value) => JSON.stringify(value))));
}

/**
 * A numeric option: a number (`Infinity` allowed) of at least `minimum`, an integer when asked.
 *
 * @param minimum - the smallest value.
 * @param integer - whether it must be an integer.
 * @returns the check.
 */
function count(minimum: number, integer: boolean): OptionCheck {
  return must(
    (value) =>
      typeof value === "number" &&
      value >= minimum &&
      (!integer || Number.isInteger(value) || value === Number.POSITIVE_INFINITY),
    `${integer ? "an integer" : "a number"} of at least ${minimum}`,
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/**
 * An object (arrays and functions' prototypes aside, any object) whose named fields pass their checks, in order.
 *
 * @param fields - the checks by field name.
 * @param expected - what the value must be.
 * @param closed - whether a field it does not name is refused (a misspelled one would be ignored unseen).
 * @param required - whether `undefined` fails too.
 * @returns the check.
 */
function object(
  fields: Record<string, OptionCheck>,
  expected = "an object",
  closed = true,
  required = false,
): OptionCheck {
  return (value, path) => {
    if (value === undefined && !required) return undefined;
    if (!isObject(value)) return { path, expected, value };
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
      const problem = check(value[key], `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

const isFunction = (value: unknown): boolean => typeof value === "function";
const aFunction = must(isFunction, "a function");
const aBoolean = must((value) => typeof value === "boolean", "true or false");

/**
 * An object with the named methods, or `false` when `orFalse` (a store or cache turned off).
 *
 * @param methods - the method names.
 * @param expected - what the value must be.
 * @param orFalse - whether `false` is allowed.
 * @returns the check.
 */
function withMethods(methods: readonly string[], expected: string, orFalse = false): OptionCheck {
  return must(
    (value) => (orFalse && value === false) || (isObject(value) && methods.every((name) => isFunction(value[name]))),
    expected,
  );
}

/**
 * An object with one method, required.
 *
 * @param method - the method's name.
 * @param expected - what the object must be.
 * @returns the check.
 */
function required(method: string, expected: string): OptionCheck {
  return object({ [method]: must(isFunction, expected, true) }, expected, false, true);
}

/** Each tool's policy. */
const toolPolicy = object(
  {
    retries: count(0, true),
    timeoutMs: count(1, false),
    approval: must(
      (value) => value === "plan" || value === "step" || isFunction(value),
      either(['"plan"', '"step"', "a function"]),
    ),
    // A string "false" would read as true: a tool with side effects would start early and be cached.
    readOnly: aBoolean,
    idempotent: aBoolean,
    cache: aBoolean,
  },
  "an object",
  true,
  true,
);

const unchecked: OptionCheck = () => undefined;

/** Every option, in the order they are checked (`profile` and `model` are not). */
const optionChecks: Record<string, OptionCheck> = {
  planner: required("stream", "an object with a stream() method"),
  registry: required("call", "a ToolRegistry"),
  eager: oneOf("safe", "all", "none"),
  maxConcurrency: count(1, true),
  timeoutMs: count(1, false),
  retries: count(0, true),
  maxReplans: count(0, true),
  reflectionRetries: count(0, true),
  memoryTimeoutMs: count(1, false),
  approvalTimeoutMs: count(1, false),
  modelTimeouts: object({ idleMs: count(1, false), totalMs: count(1, false) }),
  budget: object({
    modelCalls: count(0, true),
    toolCalls: count(0, true),
    replans: count(0, true),
    steps: count(0, true),
    deadlineMs: count(0, false),
  }),
  policy: (value, path) => {
    if (value === undefined) return undefined;
    if (!isRecord(value)) return { path, expected: "an object of tool policies by tool name", value };
    for (const key of Object.keys(value)) {
      if (key === "__proto__" || key === "prototype" || key === "constructor") continue;
      const problem = toolPolicy(value[key], `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  },
  executeStep: aFunction,
  replyStreaming: oneOf("safe", "early"),
  integrate: oneOf("model", "template"),
  random: aFunction,
  sleep: aFunction,
  idGenerator: aFunction,
  // The options whose values are objects of the application's.
  profile: unchecked,
  memory: withMethods(["read", "write"], "false or an object with read() and write() methods", true),
  reflector: withMethods(["reflect"], "an object with a reflect() method"),
  model: unchecked,
  backoff: object({
    initialMs: count(0, false),
    factor: count(1, false),
    maxMs: count(0, false),
    jitter: must((value) => typeof value === "number" && value >= 0 && value <= 1, "a number from 0 to 1"),
  }),
  cache: withMethods(["get", "set"], "false or an object with get() and set() methods", true),
  clock: withMethods(["now", "setTimeout", "clearTimeout"], "an object with now(), setTimeout() and clearTimeout()"),
};

/** The names of `AgentRuntime`'s options. */
export const runtimeOptionNames: readonly string[] = Object.keys(optionChecks);

/**
 * Checks options against a table: no key that names no option (naming the
 * closest), then each option in the table's order.
 *
 * @param options - what the application passed.
 * @param checks - the check of each option.
 * @param owner - whose options they are (`AgentRuntime`, `run`, `createMemoryCache`), for the messages.
 * @param label - how a message names an option: `Option ttlMs of createMemoryCache` by default.
 * @throws PlankitError `invalid-options` naming an unknown key and the closest option, or the first wrong option, what it must be and the value found.
 *
 * @example
 * ```ts
 * checkOptions({ system: 42 }, { system: must((value) => typeof value === "string", "a string") }, "f"); // throws: Option system of f must be a string, got 42
 * ```
 */
export function checkOptions(
  options: unknown,
  checks: Record<string, OptionCheck>,
  owner: string,
  label = (name: string): string => `Option ${name} of ${owner}`,
): void {
  checkOptionKeys(options, Object.keys(checks), owner);
  const problem = object(checks, "", false)(options, "");
  if (problem !== undefined) {
    throw new PlankitError(
      "invalid-options",
      problem.message ??
        `${label(problem.path.slice(1))} must be ${problem.expected}, got ${describeValue(problem.value)}`,
    );
  }
}

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
  checkOptions(options, optionChecks, "AgentRuntime", (name) => `Option ${name}`);
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
  signal: must(
    (value) => isObject(value) && typeof value["aborted"] === "boolean" && isFunction(value["addEventListener"]),
    "an AbortSignal",
  ),
  context: must(isRecord, "an object of values by key"),
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
  checkOptions(options, runOptionChecks, "run");
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
  const checks: Record<string, OptionCheck> = {};
  for (const [key, field] of Object.entries(fields)) checks[key] = field === "function" ? aFunction : count(...field);
  checkOptions(options, checks, owner);
}
