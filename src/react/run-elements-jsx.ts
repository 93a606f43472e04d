/**
 * JSX types of the run elements, for React 19 (which sets `store` as a property).
 *
 * @module
 */
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { RunStore } from "../ui/create-run-store.ts";

/** The props of a run element in JSX: its store, or `src` and `token`, and any HTML attribute. */
export type RunElementProps = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  /** The store shown (set as a property). */
  store?: RunStore | undefined;
  /** An event-stream URL to make a store from. */
  src?: string | undefined;
  /** The bearer token for `src`. */
  token?: string | undefined;
};

declare module "react" {
  // The JSX namespace of React's types: adding to it is how custom elements get typed props.
  namespace JSX {
    interface IntrinsicElements {
      "plankit-run": RunElementProps;
      "plankit-plan-graph": RunElementProps;
      "plankit-steps": RunElementProps;
      "plankit-approval": RunElementProps;
      "plankit-reply": RunElementProps;
    }
  }
}
