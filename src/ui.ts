/**
 * plankit/ui — a run's state for any front end: a framework-free store fed by
 * run events (iterated, or pushed into a feed), SSE or JSONL streams, or a
 * run's event-stream URL, and the
 * custom elements `<plankit-run>`, `<plankit-plan-graph>`, `<plankit-steps>`,
 * `<plankit-approval>` and `<plankit-reply>` that render it. Importing it
 * defines the elements where custom elements exist, and does nothing else
 * elsewhere, so servers can use the store.
 *
 * @module
 */
import { defineRunElements } from "./ui/define-run-elements.ts";

export type { DecisionEventDetail } from "./ui/approval-element.ts";
export { ApprovalElement } from "./ui/approval-element.ts";
export { createEventFeed, type EventFeed } from "./ui/create-event-feed.ts";
export {
  createRunStore,
  type RunConnection,
  type RunHandleLike,
  type RunSource,
  type RunStore,
  type RunStoreOptions,
} from "./ui/create-run-store.ts";
export { defineRunElements } from "./ui/define-run-elements.ts";
export {
  type GraphEdge,
  type GraphInput,
  type GraphLayout,
  type GraphLayoutOptions,
  type GraphNode,
  layoutPlanGraph,
} from "./ui/layout-plan-graph.ts";
export { type EditedArguments, parseEditedArguments } from "./ui/parse-edited-arguments.ts";
export { PlanGraphElement } from "./ui/plan-graph-element.ts";
export type { RunEventFormat } from "./ui/read-run-events.ts";
export { ReplyElement } from "./ui/reply-element.ts";
export { RunElement } from "./ui/run-element.ts";
export { StepsElement } from "./ui/steps-element.ts";

defineRunElements();
