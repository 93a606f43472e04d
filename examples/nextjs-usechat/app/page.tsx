"use client";

import { useChat } from "@ai-sdk/react";
import { type FormEvent, useState } from "react";

export default function Page() {
  // The default transport posts to /api/chat, the route handler beside this page.
  const { messages, sendMessage, status } = useChat();
  const [input, setInput] = useState("How much taller is Everest than Fuji?");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (input.trim() !== "") sendMessage({ text: input });
  }

  return (
    <main>
      <h1>plankit with useChat</h1>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
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
          </li>
        ))}
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
