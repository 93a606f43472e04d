/**
 * Turning a DAG sketch (`vertices`, `edges`) into canonical steps in topological order.
 *
 * @module
 */
import { describeValue } from "../shared/describe-value.ts";
import { mapStrings } from "../shared/map-strings.ts";
import { findReferences, REFERENCE_PATTERN } from "./find-references.ts";
import type { PlanIssue } from "./plan-issue.ts";
import type { PlanStep } from "./plan-step-schema.ts";
import { placedIssue } from "./step-issue.ts";

/** A normalized step and its position in the plan. */
export interface PlanEntry {
  /** The 0-based position (issue `index`, default id `s<position + 1>`). */
  position: number;
  /** The canonical step. */
  step: PlanStep;
}

import { isRecord } from "../shared/is-record.ts";
import { type NormalizeStepOptions, normalizeStep } from "./normalize-step.ts";

/** Options of {@link normalizeSketch}. */
export interface NormalizeSketchOptions extends NormalizeStepOptions {
  /**
   * The parameter names of a tool, in order, used to name positional `args`
   * (`"args": ["Paris", 3]`). Without it (or for an unknown tool) positional
   * arguments are named `arg0`, `arg1`, …
   */
  parameterNames?: (tool: string) => readonly string[] | undefined;
  /**
   * Append a reply step that quotes the sketch's sink vertices when the
   * sketch has no reply of its own (a sketch describes work, not an answer).
   *
   * @defaultValue `true`
   */
  sketchReply?: boolean;
}

/** How issues name a sketch's parts: its keys and the words for one item of each. */
export interface SketchWording {
  /** The key of the vertex list, for paths. */
  vertices: string;
  /** The key of the edge list, for paths. */
  edges: string;
  /** One vertex, in messages. */
  vertex: string;
  /** One edge, in messages. */
  edge: string;
}

const sketchWording: SketchWording = { vertices: "vertices", edges: "edges", vertex: "vertex", edge: "edge" };

const capitalized = (word: string): string => `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`;

interface Vertex {
  id: string;
  raw: Record<string, unknown>;
  position: number;
  after: Set<string>;
  /** The step it becomes, before normalizing. */
  candidate?: Record<string, unknown>;
}

/**
 * Rewrites sketch references: `{{task.ret}}` and `{{task.<its ret name>}}`
 * become `{{task}}`, and `{{<ret name>}}` becomes `{{<its vertex>}}`.
 *
 * @param value - a vertex's args or description.
 * @param retOwner - vertex id by declared `ret` name.
 * @param retOf - declared `ret` name by vertex id.
 * @returns the rewritten value.
 */
function rewriteRet(
  value: unknown,
  retOwner: ReadonlyMap<string, string>,
  retOf: ReadonlyMap<string, string>,
): unknown {
  return mapStrings(value, (text) =>
    text.replace(REFERENCE_PATTERN, (source, id: string, path: string) => {
      const owner = retOf.has(id) ? id : (retOwner.get(id) ?? id);
      const first = /^\.([^\s{}.[\]]+)/u.exec(path);
      const rest =
        first !== null && (first[1] === "ret" || first[1] === retOf.get(owner)) ? path.slice(first[0].length) : path;
      return owner === id && rest === path ? source : `{{${owner}${rest}}}`;
    }),
  );
}

/**
 * Reads sketch `args`: an object as it is; a list of `{name, value}` items,
 * single-key objects or positional values (named after the tool's parameters).
 *
 * @param args - the raw args.
 * @param tool - the bound tool.
 * @param options - for `parameterNames`.
 * @returns the arguments object, or the raw value for the schema to reject.
 */
function toSketchArguments(args: unknown, tool: unknown, options: NormalizeSketchOptions): unknown {
  if (args === undefined || args === null) return {};
  if (!Array.isArray(args)) return args;
  const names = typeof tool === "string" ? (options.parameterNames?.(tool) ?? []) : [];
  const result: Record<string, unknown> = {};
  let positional = 0;
  for (const item of args) {
    if (isRecord(item) && typeof item["name"] === "string" && Object.hasOwn(item, "value")) {
      result[item["name"]] = item["value"];
    } else if (isRecord(item) && Object.keys(item).length === 1) {
      Object.assign(result, item);
    } else {
      result[names[positional] ?? `arg${positional}`] = item;
      positional++;
    }
  }
  return result;
}

/**
 * Reads an edge given as `[source, target]` or `{source|from, target|to}`.
 *
 * @param edge - the raw edge.
 * @returns the endpoints, or `undefined`.
 */
function readEdge(edge: unknown): [string, string] | undefined {
  const pair = Array.isArray(edge)
    ? edge
    : isRecord(edge)
      ? [edge["source"] ?? edge["from"], edge["target"] ?? edge["to"]]
      : [];
  const [source, target] = pair.map((end: unknown) => (typeof end === "number" ? String(end) : end));
  return typeof source === "string" && typeof target === "string" && pair.length === 2 ? [source, target] : undefined;
}

/**
 * Normalizes a DAG sketch: `{ vertices: [{ id, description,
 * tool_binding, args, ret }], edges: [[source, target]] }`. A vertex with a
 * `tool_binding` becomes a tool step, one without becomes an `llm` step whose
 * prompt is its description. `{{task.ret}}` references (and references by
 * `ret` name) become `{{task}}`. Dependencies come from the edges and the
 * references; the steps are put in a stable topological order (listing order
 * wherever the graph allows). Vertices on a cycle, or depending on one, are
 * reported (`invalid-step`) and left out; the function always terminates.
 *
 * @param sketch - the raw sketch object.
 * @param options - positional argument names, the appended reply.
 * @param wording - how issues name the parts (for a sketch read from another
 *   shape, such as a TaskBench task graph).
 * @returns the steps in execution order with their positions, and the issues.
 *
 * @example
 * ```ts
 * normalizeSketch({
 *   vertices: [
 *     { id: "t2", tool_binding: "calculator", args: { expr: "{{t1.ret}} - 30" } },
 *     { id: "t1", tool_binding: "web_search", args: { query: "Julius Caesar birth year" }, ret: "year" },
 *   ],
 *   edges: [["t1", "t2"]],
 * });
 * // entries: t1 (web_search), t2 (calculator, expr "{{t1}} - 30"), reply "{{t2}}"
 * ```
 */
export function normalizeSketch(
  sketch: Record<string, unknown>,
  options: NormalizeSketchOptions = {},
  wording: SketchWording = sketchWording,
): { entries: PlanEntry[]; issues: PlanIssue[] } {
  const VertexWord = capitalized(wording.vertex);
  const EdgeWord = capitalized(wording.edge);
  const issues: PlanIssue[] = [];
  /** Reports a problem of the item at `position` of the list under `key` (`/vertices/2`). */
  const report = (code: PlanIssue["code"], key: string, position: number, message: string, stepId?: string): void => {
    issues.push(placedIssue(code, -1, `/${key}/${position}`, message, stepId));
  };
  const rawVertices = Array.isArray(sketch["vertices"]) ? sketch["vertices"] : [];
  const vertices = new Map<string, Vertex>();
  rawVertices.forEach((raw: unknown, position) => {
    if (!isRecord(raw)) {
      report(
        "invalid-step",
        wording.vertices,
        position,
        `${VertexWord} ${position + 1} must be an object, got ${describeValue(raw)}`,
      );
      return;
    }
    const rawId = raw["id"] ?? raw["task_id"];
    const id = typeof rawId === "number" || typeof rawId === "string" ? String(rawId) : `s${position + 1}`;
    if (vertices.has(id)) {
      report(
        "duplicate-id",
        wording.vertices,
        position,
        `${VertexWord} "${id}" reuses the id of an earlier ${wording.vertex}`,
        id,
      );
      return;
    }
    vertices.set(id, { id, raw, position, after: new Set() });
  });

  const retOwner = new Map<string, string>();
  const retOf = new Map<string, string>();
  for (const vertex of vertices.values()) {
    const ret = vertex.raw["ret"];
    if (typeof ret === "string" && ret !== "") {
      retOf.set(vertex.id, ret);
      if (!vertices.has(ret) && !retOwner.has(ret)) retOwner.set(ret, vertex.id);
    }
  }

  const edges = Array.isArray(sketch["edges"]) ? sketch["edges"] : [];
  edges.forEach((raw: unknown, position) => {
    const edge = readEdge(raw);
    if (edge === undefined) {
      report(
        "invalid-step",
        wording.edges,
        position,
        `${EdgeWord} ${position + 1} must be [source, target], got ${describeValue(raw)}`,
      );
      return;
    }
    const [source, target] = edge;
    const missing = [source, target].filter((id) => !vertices.has(id));
    if (missing.length > 0) {
      const names = missing.map((id) => `"${id}"`).join(" and ");
      report(
        "unknown-reference",
        wording.edges,
        position,
        `${EdgeWord} ${describeValue(edge)} names unknown ${wording.vertex} ${names}`,
      );
      return;
    }
    vertices.get(target)?.after.add(source);
  });

  for (const vertex of vertices.values()) {
    const { raw } = vertex;
    const tool = raw["tool_binding"] ?? raw["tool"] ?? raw["name"];
    const description = typeof raw["description"] === "string" ? raw["description"] : undefined;
    const candidate: Record<string, unknown> = { id: vertex.id };
    if (tool === undefined || tool === null || tool === "") {
      candidate["type"] = "llm";
      candidate["prompt"] = rewriteRet(raw["prompt"] ?? raw["question"] ?? description, retOwner, retOf);
    } else {
      candidate["type"] = "tool";
      candidate["name"] = tool;
      candidate["arguments"] = rewriteRet(
        toSketchArguments(raw["args"] ?? raw["arguments"], tool, options),
        retOwner,
        retOf,
      );
      if (description !== undefined) candidate["description"] = description;
    }
    const edgeOnly = [...vertex.after];
    for (const reference of findReferences([candidate["arguments"], candidate["prompt"]])) {
      if (vertices.has(reference.id) && reference.id !== vertex.id) vertex.after.add(reference.id);
      const at = edgeOnly.indexOf(reference.id);
      if (at >= 0) edgeOnly.splice(at, 1);
    }
    if (edgeOnly.length > 0) candidate["dependsOn"] = edgeOnly;
    vertex.candidate = candidate;
  }

  // Kahn's algorithm, always taking the ready vertex listed first, so that an
  // already ordered sketch keeps its order.
  const order: Vertex[] = [];
  const placed = new Set<string>();
  const pending = [...vertices.values()];
  for (;;) {
    const next = pending.find((vertex) => !placed.has(vertex.id) && [...vertex.after].every((id) => placed.has(id)));
    if (next === undefined) break;
    placed.add(next.id);
    order.push(next);
  }
  const stuck = pending.filter((vertex) => !placed.has(vertex.id));
  for (const vertex of stuck) {
    const cycle = findCycle(vertex, vertices, placed);
    const message =
      cycle === undefined
        ? `depends on a ${wording.vertex} that is part of a dependency cycle`
        : `is part of a dependency cycle: ${cycle.join(" → ")}`;
    report("invalid-step", wording.vertices, vertex.position, `${VertexWord} "${vertex.id}" ${message}`, vertex.id);
  }

  const steps = order.map((vertex) => vertex.candidate);
  if ((options.sketchReply ?? true) && order.length > 0) {
    const hasSuccessor = new Set(order.flatMap((vertex) => [...vertex.after]));
    const sinks = order.filter((vertex) => !hasSuccessor.has(vertex.id));
    let id = "reply";
    for (let suffix = 1; vertices.has(id); suffix++) id = `reply_${suffix}`;
    // Always valid: a free id, and a text that quotes at least one sink.
    steps.push({ id, type: "reply", text: sinks.map((vertex) => `{{${vertex.id}}}`).join("\n\n") });
  }
  const normalized = normalizeEntries(steps, options);
  return { entries: normalized.entries, issues: [...issues, ...normalized.issues] };
}

/**
 * Normalizes the steps of a plan in order (see `normalizeStep`).
 *
 * @param steps - the raw steps.
 * @param options - normalization options.
 * @returns the steps that could be read, with their positions, and the issues of the others.
 */
export function normalizeEntries(
  steps: readonly unknown[],
  options: NormalizeStepOptions,
): { entries: PlanEntry[]; issues: PlanIssue[] } {
  const entries: PlanEntry[] = [];
  const issues: PlanIssue[] = [];
  steps.forEach((raw, position) => {
    const result = normalizeStep(raw, position, options);
    if (result.step !== undefined) entries.push({ position, step: result.step });
    issues.push(...result.issues);
  });
  return { entries, issues };
}

/**
 * Finds a cycle through `start` among the vertices that could not be placed,
 * depth first along `after` (from a vertex to what it depends on).
 *
 * @param start - a vertex that could not be placed.
 * @param vertices - all vertices by id.
 * @param placed - the ids that were placed.
 * @returns the cycle as ids in reading order (`start` first and last), or `undefined` when `start` only depends on one.
 */
function findCycle(
  start: Vertex,
  vertices: ReadonlyMap<string, Vertex>,
  placed: ReadonlySet<string>,
): string[] | undefined {
  // A vertex seen before is on the current path or led nowhere: either way it adds no cycle.
  const seen = new Set<string>();
  const visit = (vertex: Vertex): string[] | undefined => {
    seen.add(vertex.id);
    for (const id of vertex.after) {
      const next = vertices.get(id);
      const cycle =
        id === start.id ? [id] : next === undefined || placed.has(id) || seen.has(id) ? undefined : visit(next);
      if (cycle !== undefined) {
        cycle.push(vertex.id);
        return cycle;
      }
    }
    return undefined;
  };
  return visit(start);
}
