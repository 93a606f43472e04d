/**
 * plankit/react — `useRun`, a run's state in a React component, over the
 * store of `plankit/ui`. React 18 or later is a peer dependency of this entry
 * only. Render the elements of `plankit/ui` with the store:
 * `<plankit-run store={store} />` (React 19 sets it as a property).
 *
 * @module
 */

export type { RunElementProps } from "./react/run-elements-jsx.ts";
export { type UseRunResult, useRun } from "./react/use-run.ts";
