"use client";

/**
 * One run drawn by `<plankit-run>` from the events the chat received. The page
 * loads this module in the browser only: importing plankit/ui defines the
 * custom elements, which need the DOM.
 */
import type { RuntimeEvent } from "plankit";
import { useRun } from "plankit/react";
import "plankit/ui";

export default function RunView({ events }: { events: AsyncIterable<RuntimeEvent> }) {
  // A store over the events (made once per feed, closed when the view unmounts); React 19 sets `store` as a property.
  const { store } = useRun(events);
  return <plankit-run store={store} />;
}
