/**
 * Registering the run elements.
 *
 * @module
 */
import { ApprovalElement } from "./approval-element.ts";
import { PlanGraphElement } from "./plan-graph-element.ts";
import { ReplyElement } from "./reply-element.ts";
import { RunElement } from "./run-element.ts";
import { StepsElement } from "./steps-element.ts";

declare global {
  interface HTMLElementTagNameMap {
    "plankit-run": RunElement;
    "plankit-plan-graph": PlanGraphElement;
    "plankit-steps": StepsElement;
    "plankit-approval": ApprovalElement;
    "plankit-reply": ReplyElement;
  }
}

/** The tag names and their classes; the inner elements come first, so `<plankit-run>` finds them defined. */
const elements = [
  ["plankit-plan-graph", PlanGraphElement],
  ["plankit-steps", StepsElement],
  ["plankit-approval", ApprovalElement],
  ["plankit-reply", ReplyElement],
  ["plankit-run", RunElement],
] as const;

/**
 * Defines `<plankit-run>`, `<plankit-plan-graph>`, `<plankit-steps>`,
 * `<plankit-approval>` and `<plankit-reply>` in a registry, skipping the
 * names it already has (a second copy of plankit, or a second call, is
 * harmless). Where there are no custom elements (Node, workerd) it does
 * nothing. `plankit/ui` calls it when imported.
 *
 * @param registry - where to define them. @defaultValue `globalThis.customElements`
 * @returns whether the elements are defined in the registry now.
 *
 * @example
 * ```ts
 * defineRunElements();
 * document.body.append(Object.assign(document.createElement("plankit-run"), { store }));
 * ```
 */
export function defineRunElements(registry: CustomElementRegistry | undefined = globalThis.customElements): boolean {
  if (registry === undefined || globalThis.HTMLElement === undefined) return false;
  for (const [name, element] of elements) {
    if (registry.get(name) === undefined) registry.define(name, element);
  }
  return true;
}
