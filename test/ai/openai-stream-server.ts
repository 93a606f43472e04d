/**
 * A local server (Node) that streams scripted OpenAI answers over real HTTP —
 * Chat Completions chunks and Responses API events — so that the real
 * `@ai-sdk/openai` and `@ai-sdk/openai-compatible` providers decide when they
 * emit their parts. A script is a list of SSE events, waits (a promise the
 * test resolves, so it can hold the finish back until it saw a tool start)
 * and pauses.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One thing the server does while answering: write an event, wait for the
 * test, or wait until `atMs` after the answer began (paced against the
 * clock, so a busy event loop does not slow the stream down).
 */
export type Frame = string | { wait: () => Promise<void> } | { atMs: number };

/** A request the server received. */
interface ReceivedRequest {
  path: string;
  body: Record<string, unknown>;
}

/** A running server. */
export interface OpenAIStreamServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  requests: ReceivedRequest[];
  /** Picks the frames of each answer. */
  respond: (request: ReceivedRequest, index: number) => Frame[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

/**
 * Starts the server on 127.0.0.1 and a free port.
 *
 * @returns the server; close it in `afterAll`.
 */
export async function startOpenAIStreamServer(): Promise<OpenAIStreamServer> {
  const requests: ReceivedRequest[] = [];
  const state: OpenAIStreamServer = {
    baseURL: "",
    requests,
    respond: () => [],
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const received: ReceivedRequest = {
        path: request.url ?? "",
        body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(received);
      const frames = state.respond(received, requests.length - 1);
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const origin = performance.now();
      for (const frame of frames) {
        if (typeof frame === "string") {
          response.write(frame);
          // One event per network write, as a real server flushes them.
          await new Promise((resolve) => setImmediate(resolve));
        } else if ("wait" in frame) {
          await frame.wait();
        } else {
          const ms = origin + frame.atMs - performance.now();
          if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
        }
      }
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}

/** A tool call the model makes. */
export interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

const chatBase = {
  id: "chatcmpl-local",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "local-model",
};

/**
 * One Chat Completions chunk as an SSE event.
 *
 * @param delta - the choice's delta.
 * @param finishReason - the finish reason, or `null`.
 * @returns the event.
 */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ ...chatBase, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/**
 * The chunk that opens a call at `index`: its id, its name and the first piece of its arguments.
 *
 * @param index - the call's index in the turn.
 * @param call - the call.
 * @param first - the first piece of its arguments (`""` for none).
 * @returns the event.
 */
export function chatCallStart(index: number, call: ScriptedCall, first = ""): string {
  return chatChunk({
    tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: first } }],
  });
}

/**
 * A chunk carrying the next piece of the arguments of the call at `index`.
 *
 * @param index - the call's index.
 * @param piece - the piece.
 * @returns the event.
 */
export function chatCallDelta(index: number, piece: string): string {
  return chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
}

/**
 * The end of a Chat Completions answer: the finish chunk, usage and `[DONE]`.
 *
 * @param finishReason - `tool_calls`, `stop`, …
 * @returns the events.
 */
export function chatEnd(finishReason: string): string[] {
  const usage = { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 };
  return [
    chatChunk({}, finishReason),
    `data: ${JSON.stringify({ ...chatBase, choices: [], usage })}\n\n`,
    "data: [DONE]\n\n",
  ];
}

/**
 * A text answer as Chat Completions events.
 *
 * @param text - the answer.
 * @returns the events, ending the answer with `stop`.
 */
export function chatText(text: string): string[] {
  return [chatChunk({ role: "assistant", content: "" }), chatChunk({ content: text }), ...chatEnd("stop")];
}

/**
 * A Responses API event.
 *
 * @param type - the event type.
 * @param fields - its fields.
 * @returns the event, with its `event:` line.
 */
function responsesEvent(type: string, fields: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

const responseHead = { id: "resp_local", created_at: 1_700_000_000, model: "local-model" };

/** The event that opens a Responses answer. */
export function responsesCreated(): string {
  return responsesEvent("response.created", { response: responseHead });
}

/** The event that ends a Responses answer. */
export function responsesCompleted(): string {
  return responsesEvent("response.completed", {
    response: { ...responseHead, usage: { input_tokens: 50, output_tokens: 20 } },
  });
}

/**
 * The events of a function call in the Responses API, split in two so the
 * caller can put other events between its arguments and its end.
 *
 * @param outputIndex - its place in the output.
 * @param call - the call.
 * @param pieces - the argument deltas.
 * @param finalArguments - the arguments of the `.done` and `output_item.done` events.
 * @returns the opening and argument events, and the closing events.
 */
export function responsesCall(
  outputIndex: number,
  call: ScriptedCall,
  pieces: readonly string[],
  finalArguments = call.arguments,
): { head: string[]; tail: string[] } {
  const item = { type: "function_call", id: `fc_${call.id}`, call_id: call.id, name: call.name };
  return {
    head: [
      responsesEvent("response.output_item.added", {
        output_index: outputIndex,
        item: { ...item, arguments: "", status: "in_progress" },
      }),
      ...pieces.map((delta) =>
        responsesEvent("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index: outputIndex,
          delta,
        }),
      ),
      responsesEvent("response.function_call_arguments.done", {
        item_id: item.id,
        output_index: outputIndex,
        arguments: finalArguments,
      }),
    ],
    tail: [
      responsesEvent("response.output_item.done", {
        output_index: outputIndex,
        item: { ...item, arguments: finalArguments, status: "completed" },
      }),
    ],
  };
}

/**
 * A text answer as Responses API events.
 *
 * @param text - the answer.
 * @returns the events.
 */
export function responsesText(text: string): string[] {
  const item = { type: "message", id: "msg_local", role: "assistant", status: "in_progress", content: [] };
  return [
    responsesCreated(),
    responsesEvent("response.output_item.added", { output_index: 0, item }),
    responsesEvent("response.output_text.delta", {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: text,
      logprobs: [],
    }),
    responsesEvent("response.output_item.done", { output_index: 0, item: { ...item, status: "completed" } }),
    responsesCompleted(),
  ];
}

/**
 * A gate: the server waits on it, the test opens it. It opens by itself
 * after `timeoutMs`, so a test that never opens it fails on its assertions
 * instead of hanging; `openedByTest` says which happened.
 *
 * @param timeoutMs - the longest wait.
 * @returns the gate.
 */
export function createGate(timeoutMs = 5_000): { frame: Frame; open(): void; readonly openedByTest: boolean } {
  let open = (): void => {};
  let openedByTest = false;
  const opened = new Promise<void>((resolve) => {
    open = () => {
      openedByTest = true;
      resolve();
    };
  });
  return {
    frame: { wait: () => Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]) },
    open: () => open(),
    get openedByTest() {
      return openedByTest;
    },
  };
}
