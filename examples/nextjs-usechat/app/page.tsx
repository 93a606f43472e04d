"use client";

import { useChat } from "@ai-sdk/react";
import type { UIMessage } from "ai";
import dynamic from "next/dynamic";
import type { RuntimeEvent } from "plankit";
import { createEventFeed, type EventFeed } from "plankit/ui";
import { type FormEvent, useRef, useState } from "react";

// plankit/ui defines <plankit-run> when it is imported, which needs the DOM: the view is loaded in the browser only.
const RunView = dynamic(() => import("./run-view"), { ssr: false });

/** The chat's messages: the route sends the run's events as transient `data-plankit` parts. */
type ChatMessage = UIMessage<unknown, { plankit: RuntimeEvent }>;

export default function Page() {
  // One feed of events per run, by run id, which is also the id of the assistant message the run writes.
  const feeds = useRef(new Map<string, EventFeed<RuntimeEvent>>());
  const [runs, setRuns] = useState<ReadonlyMap<string, EventFeed<RuntimeEvent>>>(new Map());
  // The default transport posts to /api/chat, the route handler beside this page.
  const { messages, sendMessage, status } = useChat<ChatMessage>({
    onData(part) {
      if (part.type !== "data-plankit") return;
      const event = part.data;
      let feed = feeds.current.get(event.runId);
      if (feed === undefined) {
        const created = createEventFeed();
        feeds.current.set(event.runId, created);
        setRuns((current) => new Map(current).set(event.runId, created));
        feed = created;
      }
      feed.push(event);
      if (event.type === "run-end") feed.end();
    },
    // A request that ended without the run's end (stopped, cut off): its feed ends too.
    onFinish() {
      for (const feed of feeds.current.values()) if (!feed.ended) feed.end();
    },
  });
  const [input, setInput] = useState("How much taller is Everest than Fuji?");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (input.trim() !== "") sendMessage({ text: input });
  }

  return (
    <main>
      <h1>plankit with useChat</h1>
      <ol>
        {messages.map((message) => {
          const run = runs.get(message.id);
          return (
            <li key={message.id} data-role={message.role} style={{ display: "flex", gap: "1rem" }}>
              <div className="parts" style={{ flex: 1 }}>
                {message.parts.map((part, index) => {
                  const key = `${message.id}-${index}`;
                  if (part.type === "text") return <p key={key}>{part.text}</p>;
                  if (part.type === "dynamic-tool")
                    return (
                      <p key={key} data-tool-state={part.state}>
                        {part.title ?? part.toolName}:{" "}
                        {part.state === "output-available" ? JSON.stringify(part.output) : part.state}
                      </p>
                    );
                  return null;
                })}
              </div>
              {run === undefined ? null : (
                <div className="run" style={{ flex: 1 }}>
                  <RunView events={run} />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <form onSubmit={submit}>
        <label htmlFor="question">Question</label>
        <input id="question" value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit" disabled={status === "streaming" || status === "submitted"}>
          Ask
        </button>
      </form>
      <p role="status">{status}</p>
    </main>
  );
}
