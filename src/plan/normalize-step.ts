/**
 * Turning one step, in any accepted input shape, into a canonical step.
 *
 * @module
 */
import { describeType, describeValue } from "../shared/describe-value.ts";
import { isRecord } from "../shared/is-record.ts";
import { mapStrings } from "../shared/map-strings.ts";
import { ARGUMENT_KEYS, STEP_TYPE_ALIASES, TOOL_NAME_KEYS } from "./call-formats.ts";
import { checkPlanStep } from "./check-plan-step.ts";
import { CONTEXT_REFERENCE_ROOT } from "./context-reference-root.ts";
import { findTooDeep, MAX_STEP_DEPTH } from "./find-too-deep.ts";
import { pickField } from "./pick-field.ts";
import type { PlanIssue } from "./plan-issue.ts";
import type { PlanStep } from "./plan-step-schema.ts";
import { stepIssue } from "./step-issue.ts";

/** Options of {@link normalizeStep} and `normalizePlan`. */
export interface NormalizeStepOptions {
  /**
   * The tool a `query_kb` step of the step-list shape (`step_id`, `action`,
   * `params`, `dependencies`) calls. The step becomes
   * `{"type":"tool","name":<this>,"arguments":{"topic":…, …params}}`.
   *
   * @defaultValue `"query_kb"`
   */
  knowledgeBaseTool?: string;
}

/** The result of {@link normalizeStep}: the canonical step, or the issues that prevented it. */
export interface NormalizeStepResult {
  /** The canonical step, when the input could be read as one. */
  step?: PlanStep;
  /** Why it could not (empty when `step` is set). */
  issues: PlanIssue[];
}

type RawObject = Record<string, unknown>;

/**
 * Reads an id given as a string or a number.
 *
 * @param value - the raw id.
 * @returns the id as text, or the raw value for the schema to reject.
 */
function toId(value: unknown): unknown {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : value;
}

/**
 * Reads a dependency list given as an array, a single id or nothing.
 *
 * @param value - the raw list, as `pickField` gives it (never `null`).
 * @returns the ids, `undefined` when empty, or the raw value for the schema to reject.
 */
function toIdList(value: unknown): unknown {
  if (typeof value === "string" || typeof value === "number") return [toId(value)];
  if (!Array.isArray(value)) return value;
  return value.length === 0 ? undefined : value.map(toId);
}

/**
 * Reads tool arguments given as an object or as a JSON string (as in OpenAI
 * function calls).
 *
 * @param value - the raw arguments.
 * @returns the arguments object, or the raw value for the schema to reject.
 */
function toArguments(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === "string") {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

const segment = String.raw`[\p{L}\p{N}_-]+`;
/** `$step:id.key` (group 1 `step:`) or `$context:key.more` / `$context.key` (group 1 `context:` / `context.`). */
const prefixedReference = new RegExp(String.raw`\$(step:|context[:.])(${segment})((?:\.${segment})*)`, "gu");
const bareReference = new RegExp(String.raw`^\$([\p{L}_][\p{L}\p{N}_-]*)((?:\.${segment})*)$`, "u");
const stepLikeId = /^(?:step|task|var|s|t)[_-]?\d+$/iu;
const delimitedReference = /\$([\p{L}_][\p{L}\p{N}_-]*)((?:\.[^\s$.{}[\]](?:[^$.{}[\]\n]*[^\s$.{}[\]])?)*)\$/gu;

/**
 * Rewrites NESTFUL's `$`-delimited references, deep through arrays and
 * objects: `"$var1.skyId$"` → `"{{var1.skyId}}"`, `"$var3$"` → `"{{var3}}"`,
 * also inside longer text (`"5 * $var1.Exchange Rate$"`), when the id looks
 * like a step id (`var1`, `s2`, `step_3`), so that other text with dollar
 * signs stays as it is.
 *
 * @param value - a flat step's arguments or text.
 * @returns the rewritten value.
 */
function rewriteDelimitedReferences(value: unknown): unknown {
  return mapStrings(value, (text) =>
    text.replace(delimitedReference, (source, id: string, path: string) =>
      stepLikeId.test(id) ? `{{${id}${path}}}` : source,
    ),
  );
}

/** The name NESTFUL gives the pseudo-call that gathers the final results. */
const RESULT_CALL = "var_result";

/**
 * Rewrites `$`-prefixed references of the step-list shape into `{{…}}` references, deep through arrays
 * and objects: `$step:id.key` → `{{id.key}}`, `$context:key` (or
 * `$context.key`) → `{{context.key}}`, and a string that is exactly `$id` or
 * `$id.key` → `{{id}}` / `{{id.key}}` when `id` is one of the step's
 * dependencies or looks like a step id (`step_1`, `task2`, `s3`), so that
 * prices such as `"$USD"` stay text.
 *
 * @param value - a value of a step-list step (params, question).
 * @param dependencies - the step's declared dependencies.
 * @returns the rewritten value.
 */
function rewriteDollarReferences(value: unknown, dependencies: ReadonlySet<string>): unknown {
  return mapStrings(value, (text) => {
    if (!text.includes("$")) return text;
    const bare = bareReference.exec(text);
    if (bare !== null) {
      const id = bare[1] ?? "";
      if (id === CONTEXT_REFERENCE_ROOT || dependencies.has(id) || stepLikeId.test(id))
        return `{{${id}${bare[2] ?? ""}}}`;
    }
    return text.replace(
      prefixedReference,
      (_match, prefix: string, first: string, rest: string) =>
        `{{${prefix === "step:" ? "" : `${CONTEXT_REFERENCE_ROOT}.`}${first}${rest}}}`,
    );
  });
}

/**
 * Reads a step in the step-list shape (`step_id`, `action`, `tool`, `params`, `question`,
 * `topic`, `dependencies`, `max_retries`).
 *
 * @param raw - the raw step.
 * @param options - normalization options.
 * @returns the canonical candidate, or an error message about `action`.
 */
function fromStepList(raw: RawObject, options: NormalizeStepOptions): RawObject | string {
  const dependsOn = toIdList(pickField(raw, "dependencies", "dependsOn", "depends_on"));
  const dependencies = new Set(
    Array.isArray(dependsOn) ? dependsOn.filter((id): id is string => typeof id === "string") : [],
  );
  // Without an action, the field only one action has says which.
  const action =
    pickField(raw, "action") ??
    (pickField(raw, "tool") !== undefined
      ? "use_tool"
      : pickField(raw, "topic") !== undefined
        ? "query_kb"
        : pickField(raw, "question") !== undefined
          ? "llm_reasoning"
          : undefined);
  const candidate: RawObject = { id: toId(pickField(raw, "step_id", "id")) };
  if (action === "query_kb") {
    const params = toArguments(pickField(raw, "params", "arguments"));
    const topic = pickField(raw, "topic");
    candidate["type"] = "tool";
    candidate["name"] = options.knowledgeBaseTool ?? "query_kb";
    candidate["arguments"] = isRecord(params) ? { ...params, ...(topic === undefined ? {} : { topic }) } : params;
  } else {
    const type = typeof action === "string" ? STEP_TYPE_ALIASES[action] : undefined;
    if (type === undefined) {
      return `has unknown action ${describeValue(action)}; expected "use_tool", "llm_reasoning" or "query_kb"`;
    }
    candidate["type"] = type;
    if (type === "tool") {
      // The step-list shape's own order and fields, not TOOL_NAME_KEYS / ARGUMENT_KEYS: it names the tool in `tool`.
      candidate["name"] = pickField(raw, "tool", "name", "tool_name");
      candidate["arguments"] = toArguments(pickField(raw, "params", "arguments", "args"));
    } else if (type === "llm") {
      candidate["prompt"] = pickField(raw, "question", "prompt", "description");
    } else {
      candidate["text"] = pickField(raw, "text", "answer", "content", "question");
    }
  }
  withPolicy(candidate, raw, dependsOn, ["max_retries", "retries"], (value) =>
    rewriteDollarReferences(value, dependencies),
  );
  if (candidate["type"] === "llm" && candidate["description"] === candidate["prompt"])
    candidate["description"] = undefined;
  return candidate;
}

/**
 * Rewrites a candidate's references and adds the policy fields every shape shares.
 *
 * @param candidate - the canonical candidate, updated in place.
 * @param raw - the raw step.
 * @param dependsOn - the dependency list, read.
 * @param retries - the names of the retry count, in order of preference.
 * @param rewrite - rewrites the references of a value.
 */
function withPolicy(
  candidate: RawObject,
  raw: RawObject,
  dependsOn: unknown,
  retries: string[],
  rewrite: (value: unknown) => unknown,
): void {
  // An absent field stays undefined, and normalizeStep drops it.
  for (const key of ["arguments", "prompt", "text"]) candidate[key] = rewrite(candidate[key]);
  candidate["dependsOn"] = dependsOn;
  candidate["description"] = pickField(raw, "description");
  candidate["retries"] = pickField(raw, ...retries);
  candidate["timeoutMs"] = pickField(raw, "timeoutMs", "timeout_ms");
}

/**
 * Reads a canonical, compact (`{id, tool, args}`, `{id, prompt}`,
 * `{id, reply}`) or flat (`{"type":"tool","name","arguments"}`) step,
 * tolerating common variants (`tool`/`tool_name` for `name`,
 * `args`/`params`/`parameters`/`input` for `arguments`, arguments as a JSON
 * string, OpenAI `{"type":"function", "function":{name, arguments}}`, a
 * missing `type` inferred from the fields).
 *
 * @param raw - the raw step.
 * @returns the canonical candidate.
 */
function fromFlat(raw: RawObject): RawObject {
  const fn = isRecord(raw["function"]) ? raw["function"] : undefined;
  const rawType = pickField(raw, "type");
  let type: unknown = typeof rawType === "string" ? (STEP_TYPE_ALIASES[rawType] ?? rawType) : rawType;
  const resultCall = type === undefined && raw["name"] === RESULT_CALL;
  if (resultCall) type = "reply";
  else if (type === undefined) {
    if (pickField(raw, ...TOOL_NAME_KEYS) !== undefined || fn !== undefined) type = "tool";
    else if (pickField(raw, "prompt") !== undefined) type = "llm";
    else if (pickField(raw, "reply", "text") !== undefined) type = "reply";
  }
  const label = pickField(raw, "label");
  const candidate: RawObject = {
    id: toId(pickField(raw, "id") ?? (typeof label === "string" ? label.replace(/^\$/u, "") : label)),
    type,
  };
  if (resultCall) {
    const results = toArguments(pickField(raw, "arguments"));
    candidate["text"] = isRecord(results)
      ? Object.entries(results)
          .map(([key, item]) => `${key}: ${typeof item === "string" ? item : JSON.stringify(item)}`)
          .join("\n")
      : results;
  } else if (type === "tool") {
    candidate["name"] = fn === undefined ? pickField(raw, ...TOOL_NAME_KEYS) : pickField(fn, "name");
    candidate["arguments"] = toArguments(
      fn === undefined ? pickField(raw, ...ARGUMENT_KEYS) : pickField(fn, "arguments", "parameters"),
    );
  } else if (type === "llm") {
    candidate["prompt"] = pickField(raw, "prompt", "question");
  } else if (type === "reply") {
    candidate["text"] = pickField(raw, "text", "reply", "answer", "content");
  }
  withPolicy(
    candidate,
    raw,
    toIdList(pickField(raw, "dependsOn", "depends_on", "dependencies")),
    ["retries", "max_retries"],
    rewriteDelimitedReferences,
  );
  return candidate;
}

/**
 * Normalizes one step, as it streams in, to the canonical wire format. It
 * accepts the canonical shape, the flat shape
 * (`{"type":"tool","name","arguments"}`, `{"type":"reply","text"}`), the
 * step-list shape (`step_id`, `action: use_tool | llm_reasoning | query_kb`,
 * `tool`, `params`, `question`, `topic`, `dependencies`, `$step:id.key` and
 * `$context:key` references) and tolerates common variants (`tool`/`tool_name`
 * for `name`, `args`/`params`/`parameters`/`input` for `arguments`, arguments
 * as a JSON string, OpenAI `{ type: "function", function }` calls, a missing
 * `type` inferred from the fields, `answer`/`final` for `reply`), and
 * NESTFUL's sequences (`{ name, arguments, label }` with `"$var1.field$"`
 * references; the closing `var_result` call becomes the reply, one
 * `key: value` line per argument).
 * A missing id becomes `s<position + 1>`. Unknown fields are dropped.
 *
 * Step-list mappings: `llm_reasoning` becomes an `llm` step whose prompt is
 * the `question`; `query_kb` becomes a call of the knowledge-base tool
 * (`options.knowledgeBaseTool`, default `"query_kb"`) with `topic` among its
 * arguments; `$context:key` becomes `{{context.key}}`, which the runtime
 * resolves from the run context; `max_retries` becomes `retries`.
 *
 * Structure is checked as {@link PlanStepSchema} checks it (by `checkPlanStep`); tools, arguments and
 * references are checked by `validateStep`. Never throws for bad input.
 *
 * @param raw - one step as produced by a model.
 * @param position - its 0-based position in the plan (for the default id and the issue paths).
 * @param options - `knowledgeBaseTool`.
 * @returns `{ step }`, or `{ issues }` with `invalid-step` issues.
 *
 * @example
 * ```ts
 * normalizeStep({ step_id: "step_2", action: "use_tool", tool: "analyze", params: { data: "$step:step_1.rows" } }, 1);
 * // { step: { id: "step_2", type: "tool", name: "analyze", arguments: { data: "{{step_1.rows}}" } }, issues: [] }
 * ```
 */
export function normalizeStep(raw: unknown, position: number, options: NormalizeStepOptions = {}): NormalizeStepResult {
  /** An `invalid-step` issue, naming the step by `id` when it is a string and by its position otherwise. */
  const invalid = (id: unknown, message: string, pointer?: string, stepId = id): PlanIssue =>
    stepIssue(
      "invalid-step",
      position,
      typeof stepId === "string" ? stepId : undefined,
      `${typeof id === "string" ? `Step "${id}"` : `Step ${position + 1}`} ${message}`,
      pointer,
    );
  if (!isRecord(raw))
    return { issues: [invalid(undefined, `must be an object, got ${describeType(raw)} ${describeValue(raw)}`)] };
  // Measured before any walk of the step: one that recursed this deep would overflow the stack.
  const tooDeep = findTooDeep(raw, MAX_STEP_DEPTH);
  if (tooDeep !== undefined)
    return { issues: [invalid(raw["id"], `nests deeper than ${MAX_STEP_DEPTH} levels, at ${tooDeep}`)] };
  const stepList = Object.hasOwn(raw, "action") || Object.hasOwn(raw, "step_id");
  const candidate = stepList ? fromStepList(raw, options) : fromFlat(raw);
  if (typeof candidate === "string")
    return { issues: [invalid(toId(pickField(raw, "step_id", "id")), candidate, "/action")] };
  const rawId = candidate["id"];
  candidate["id"] ??= `s${position + 1}`;
  for (const key of Object.keys(candidate)) if (candidate[key] === undefined) delete candidate[key];
  const checked = checkPlanStep(candidate);
  if (checked.ok) return { step: checked.step, issues: [] };
  const issues = checked.problems.map((problem) =>
    invalid(
      rawId,
      `is invalid: ${problem.message}, got ${describeValue(problem.input)}`,
      problem.path.map((key) => `/${key}`).join(""),
      candidate["id"],
    ),
  );
  return { issues };
}
