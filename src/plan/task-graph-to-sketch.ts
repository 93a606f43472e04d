/**
 * Reading TaskBench's task graphs as DAG sketches.
 *
 * @module
 */

import { isRecord } from "../shared/is-record.ts";
import { mapStrings } from "../shared/map-strings.ts";

/** `<node-j>`: the output of the j-th node (from 0). */
const nodeReference = /<node-(\d+)>/gu;

/**
 * Rewrites `<node-j>` tags into `{{node-j}}` references, deep through
 * arrays and objects.
 *
 * @param value - a node's arguments.
 * @returns the rewritten value.
 */
function rewriteNodeTags(value: unknown): unknown {
  return mapStrings(value, (text) => text.replace(nodeReference, (_tag, index: string) => `{{node-${index}}}`));
}

/**
 * Turns a TaskBench task graph — `{ task_steps?, task_nodes: [{ task,
 * arguments }], task_links?: [{ source, target }] }` — into a DAG sketch
 * (`{ vertices, edges }`) for `normalizeSketch`: node `j` becomes vertex
 * `node-j` bound to its `task`; its `arguments` (`{ name, value }` items or
 * positional values) keep their shape, with `<node-j>` tags as `{{node-j}}`
 * references; a link names its ends by task, read as the first node with
 * that task (an unknown name stays, for the sketch to report).
 *
 * @param graph - the task graph.
 * @returns the sketch.
 *
 * @example
 * ```ts
 * taskGraphToSketch({ task_nodes: [{ task: "Image-to-Text", arguments: ["a.jpg"] }, { task: "Text-to-Speech", arguments: ["<node-0>"] }] });
 * // { vertices: [{ id: "node-0", tool_binding: "Image-to-Text", args: ["a.jpg"] }, { id: "node-1", tool_binding: "Text-to-Speech", args: ["{{node-0}}"] }], edges: [] }
 * ```
 */
export function taskGraphToSketch(graph: Record<string, unknown>): { vertices: unknown[]; edges: unknown[] } {
  const nodes = Array.isArray(graph["task_nodes"]) ? (graph["task_nodes"] as unknown[]) : [];
  const idOfTask = new Map<unknown, string>();
  const vertices = nodes.map((node: unknown, index: number): unknown => {
    if (!isRecord(node)) return node;
    const id = `node-${index}`;
    const task = node["task"] ?? node["name"];
    if (typeof task === "string" && !idOfTask.has(task)) idOfTask.set(task, id);
    return { id, tool_binding: task, args: rewriteNodeTags(node["arguments"] ?? node["args"]) };
  });
  const links = Array.isArray(graph["task_links"]) ? (graph["task_links"] as unknown[]) : [];
  const edges = links.map((link: unknown): unknown => {
    if (!isRecord(link)) return link;
    const end = (name: unknown): unknown => idOfTask.get(name) ?? name;
    return [end(link["source"]), end(link["target"])];
  });
  return { vertices, edges };
}
