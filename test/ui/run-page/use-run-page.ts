/**
 * Bundled for Chromium by `use-run.node.test.ts`: a React 19 root whose
 * component follows a run's event-stream URL with `useRun`, mounted,
 * given another URL and unmounted on the test's word, in StrictMode.
 *
 * @module
 */
import { createElement as h, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { useRun } from "../../../src/react.ts";
import type { RunStore } from "../../../src/ui.ts";

/** What the page offers the test. */
export interface UseRunPage {
  /** Renders the component for a URL (again with another one to switch). */
  show(url: string): void;
  /** Unmounts the root. */
  unmount(): void;
  /** Every store the component was given, in order, with its URL. */
  stores: { url: string; store: RunStore }[];
  /** Where each store's reading stands, in order. */
  connections(): string[];
}

const root = createRoot(document.querySelector("#root") as HTMLElement);

function Run({ url }: { url: string }) {
  const { state, store } = useRun(url);
  if (!page.stores.some((entry) => entry.store === store)) page.stores.push({ url, store });
  return h("p", { className: "run" }, `${url}: ${state.steps.length} steps, ${state.status}`);
}

const page: UseRunPage = {
  stores: [],
  show(url) {
    root.render(h(StrictMode, null, h(Run, { url })));
  },
  unmount() {
    root.unmount();
  },
  connections() {
    return page.stores.map((entry) => entry.store.getConnection().status);
  },
};
(globalThis as { useRunPage?: UseRunPage }).useRunPage = page;
