/**
 * The Worker's request handling.
 *
 * @module
 */
import { fromUIMessages, toUIMessageStreamResponse } from "../src/ai/index.ts";
import { AgentRuntime, fromChatMessages, PlankitError, toChatCompletionChunks, type AgentRuntimeOptions, type Dialog, type PlanStep, type PlannerEvent, type PlannerProfile, type RuntimeEvent, type ToolRegistry } from "../src/index.ts";
import { createRequestPlanner } from "./create-request-planner.ts";
import { createDemoTools } from "./demo/create-demo-tools.ts";
import { handleRunsRequest } from "./durable/handle-runs-request.ts";
import { matchRunsRoute } from "./durable/match-runs-route.ts";
import { handleGuideRequest } from "./handle-guide-request.ts";
import { checkBearerToken } from "./http/check-bearer-token.ts";
import { createEventStream } from "./http/create-event-stream.ts";
import { createChatBodySchema } from "./http/chat-body-schema.ts";
import { createChatCompletionsBodySchema } from "./http/chat-completions-body-schema.ts";
import { collectChatCompletion, encodeChatCompletionStream } from "./http/chat-completion-response.ts";
import { problemResponse } from "./http/problem-response.ts";
import { readJsonBody } from "./http/read-json-body.ts";
import { readRequestBody } from "./http/read-request-body.ts";
import { createRedactor } from "./http/redact-secrets.ts";
import type { RequestBody } from "./http/request-body-schema.ts";
import { resolveCors } from "./http/resolve-cors.ts";
import { selectModel, type SelectedModel } from "./select-model.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** Options of {@link createWorker}: what tests (or a fork) swap out. */
export interface WorkerOptions {
  /**
   * The tools of one request.
   *
   * @defaultValue the demo tools, with a fresh note store per request
   */
  createTools?: (env: WorkerEnv) => ToolRegistry;
  /**
   * The model of one request.
   *
   * @defaultValue {@link selectModel}
   */
  selectModel?: (env: WorkerEnv) => SelectedModel;
  /** Runtime settings for `/v1/run`, over the Worker's defaults. */
  runtime?: Partial<Omit<AgentRuntimeOptions, "planner" | "registry" | "model" | "profile">>;
}

/** The routes under `/v1/`, with their methods. */
const apiRoutes: Readonly<Record<string, readonly string[]>> = {
  "/v1/plan": ["POST"],
  "/v1/run": ["POST"],
  "/v1/guide": ["POST"],
  "/v1/chat": ["POST"],
  "/v1/chat/completions": ["POST"],
  "/v1/models": ["GET", "HEAD"],
  "/v1/tools": ["GET", "HEAD"],
};

const defaultBodyLimit = 16_384;
/** The model id Chat Completions clients see (`GET /v1/models`, and every completion). */
const chatModelId = "plankit";

/** A chat carries its history, so its body may be larger. */
const defaultChatBodyLimit = 131_072;

/** The members of a body that shape the planner and the run. */
type RunOptions = Pick<RequestBody, "profile" | "tools" | "maxSteps">;

/**
 * Passes a run's events through with secrets redacted, and aborts the run
 * when the reader stops early (the client went away).
 *
 * @param events - the run's events.
 * @param redact - removes secrets from a JSON text.
 * @param onStop - aborts the run.
 * @returns the redacted events.
 */
async function* redactEvents(events: AsyncIterable<RuntimeEvent>, redact: (text: string) => string, onStop: () => void): AsyncGenerator<RuntimeEvent> {
  let ended = false;
  try {
    for await (const event of events) {
      const text = JSON.stringify(event);
      const clean = redact(text);
      yield clean === text ? event : (JSON.parse(clean) as RuntimeEvent);
    }
    ended = true;
  } finally {
    if (!ended) onStop();
  }
}

/** An error reported inside an event stream. */
interface StreamError {
  type: "error";
  code: string;
  message: string;
}

/**
 * Passes planner events through, and when the planner throws, reports the
 * error and still ends with a `done` event (the steps accepted so far,
 * `clean: false`, `finishReason: "error"`), so every plan stream ends with `done`.
 *
 * @param events - the planner's events.
 * @returns the same events, plus `error` and `done` after a failure.
 */
async function* endWithDone(events: AsyncIterable<PlannerEvent>): AsyncGenerator<PlannerEvent | StreamError> {
  const steps: PlanStep[] = [];
  try {
    for await (const event of events) {
      if (event.type === "step") steps.push(event.step);
      yield event;
    }
  } catch (error) {
    yield { type: "error", code: PlankitError.isInstance(error) ? error.code : "internal-error", message: error instanceof Error ? error.message : String(error) };
    yield { type: "done", steps, clean: false, finishReason: "error", fallback: false, usage: { modelCalls: 0 } };
  }
}

/**
 * Adds headers to a response (copying it when its headers are immutable).
 *
 * @param response - the response.
 * @param headers - the headers to set.
 * @returns a response with the headers.
 */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) {
    if (name === "vary") copy.headers.append(name, value);
    else copy.headers.set(name, value);
  }
  return copy;
}

/**
 * Creates the Worker's fetch handler:
 *
 * - `GET /health` → `{ ok: true }`;
 * - `GET /v1/tools` → the tools (MCP descriptors) and the model;
 * - `POST /v1/plan` → SSE of planner events: a `model` event, `step` events
 *   (data: the step), `issue`/`repair` events, and `done` last (after an
 *   `error` event when the planner failed);
 * - `POST /v1/run` → SSE of runtime events, `model` first and `run-end` last;
 * - `POST /v1/chat/completions` and `GET /v1/models` → the OpenAI Chat
 *   Completions API over runs (model `plankit`), streamed or whole, the
 *   plan's progress as `reasoning_content`;
 * - `POST /v1/chat` → the AI SDK UI message stream of a run, for `useChat`
 *   (body: its transport's `messages`, `id`, `trigger`, `messageId`, plus
 *   `tools`, `maxSteps`, `profile`);
 * - `POST /v1/runs` (durable or session runs), `GET /v1/runs/:id`,
 *   `POST /v1/runs/:id/cancel`, `GET /v1/runs/:id/events` → see
 *   `handleRunsRequest`;
 * - `POST /v1/guide` → SSE of one turn of the guided demo conversation
 *   (`{ message, state? }`), `turn-end` last with the reply and the new state;
 * - other `GET`s → the static assets (the web demo), when bound;
 * - anything else → RFC 9457 problem details (404, 405).
 *
 * `/v1/*` requests pass, in order: the CORS allow-list (`OPTIONS`
 * preflights answered here; 403 for other origins), the bearer token when
 * `PLANKIT_TOKEN` is set (401), then the body checks of `readRequestBody`
 * (415, 413, 400). Every API response names the model in `x-plankit-model`.
 * A client that disconnects cancels its stream, which aborts the plan or run
 * and every tool and model call in it. The API key and the token are
 * redacted from anything streamed back.
 *
 * @param options - tools, model selection and runtime settings to swap out.
 * @returns the handler.
 *
 * @example
 * ```ts
 * export default createWorker();
 * ```
 */
export function createWorker(options: WorkerOptions = {}): { fetch(request: Request, env: WorkerEnv, context?: unknown): Promise<Response> } {
  const createTools = options.createTools ?? (() => createDemoTools());
  const chooseModel = options.selectModel ?? selectModel;

  async function handleApi(request: Request, env: WorkerEnv, path: string): Promise<Response> {
    const cors = resolveCors(request, env.PLANKIT_CORS_ORIGINS);
    if (!cors.allowed) {
      return problemResponse(403, `Origin ${request.headers.get("origin") ?? ""} may not call this API; add it to PLANKIT_CORS_ORIGINS`, { code: "origin-not-allowed" }, cors.headers);
    }
    const methods = apiRoutes[path] ?? matchRunsRoute(path)?.methods ?? [];
    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors.headers,
          "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
          "access-control-allow-headers": "authorization, content-type, last-event-id",
          "access-control-max-age": "600",
          allow: [...methods, "OPTIONS"].join(", "),
        },
      });
    }
    const respond = (response: Response, extra: Record<string, string> = {}): Response => withHeaders(response, { ...cors.headers, "x-content-type-options": "nosniff", ...extra });
    if (!methods.includes(request.method)) {
      return respond(problemResponse(405, `${path} does not accept ${request.method}; use ${methods.join(" or ")}`, { code: "method-not-allowed" }, { allow: [...methods, "OPTIONS"].join(", ") }));
    }
    const token = env.PLANKIT_TOKEN ?? "";
    if (token !== "") {
      const verdict = await checkBearerToken(request.headers.get("authorization"), token);
      if (verdict !== "ok") {
        return respond(
          problemResponse(401, verdict === "missing" ? "This API needs an Authorization: Bearer <token> header" : "The bearer token is not valid", { code: verdict === "missing" ? "missing-token" : "invalid-token" }, {
            "www-authenticate": verdict === "missing" ? 'Bearer realm="plankit"' : 'Bearer realm="plankit", error="invalid_token"',
          }),
        );
      }
    }

    const selected = chooseModel(env);
    const modelHeaders = { "x-plankit-model": selected.name, "x-plankit-model-provider": selected.provider };
    const registry = createTools(env);
    if (path === "/v1/models") {
      // What Chat Completions clients list before they call: one model, whatever plans underneath.
      const models = { object: "list", data: [{ id: chatModelId, object: "model", created: 0, owned_by: "plankit" }] };
      return respond(Response.json(models, { headers: { "cache-control": "no-store" } }), modelHeaders);
    }
    if (path === "/v1/tools") {
      return respond(Response.json({ model: { name: selected.name, provider: selected.provider }, tools: registry.list() }, { headers: { "cache-control": "no-store" } }), modelHeaders);
    }
    const limit = Number(env.PLANKIT_MAX_BODY_BYTES ?? defaultBodyLimit) > 0 ? Number(env.PLANKIT_MAX_BODY_BYTES ?? defaultBodyLimit) : defaultBodyLimit;
    if (matchRunsRoute(path) !== undefined) {
      return respond(await handleRunsRequest(request, path, { env, selected, toolNames: registry.list().map((tool) => tool.name), limit }), modelHeaders);
    }
    if (path === "/v1/guide") {
      return respond(await handleGuideRequest(request, { selected, limit, secrets: [env.OPENAI_API_KEY, env.PLANKIT_TOKEN] }), modelHeaders);
    }
    const toolNames = registry.list().map((tool) => tool.name);
    let dialog: Dialog | undefined;
    let body: RunOptions & { query?: string };
    let completion: { stream: boolean; includeUsage: boolean } | undefined;
    if (path === "/v1/chat" || path === "/v1/chat/completions") {
      const chatLimit = env.PLANKIT_MAX_BODY_BYTES === undefined ? defaultChatBodyLimit : limit;
      if (path === "/v1/chat") {
        const read = await readJsonBody(request, chatLimit, createChatBodySchema(toolNames), '{"messages":[…]}');
        if (!read.ok) return respond(read.response, modelHeaders);
        dialog = fromUIMessages(read.body.messages);
        body = read.body;
      } else {
        const read = await readJsonBody(request, chatLimit, createChatCompletionsBodySchema(), '{"messages":[{"role":"user","content":"…"}]}');
        if (!read.ok) return respond(read.response, modelHeaders);
        dialog = fromChatMessages(read.body.messages);
        // A streamed completion carries usage when asked for; a whole one always does.
        completion = { stream: read.body.stream === true, includeUsage: read.body.stream !== true || read.body.stream_options?.include_usage === true };
        body = { ...(read.body.profile === undefined ? {} : { profile: read.body.profile }), ...(read.body.maxSteps === undefined ? {} : { maxSteps: read.body.maxSteps }) };
      }
      if (dialog.at(-1)?.role !== "user") {
        const detail = "the last message must be a user message with text";
        return respond(problemResponse(400, `Invalid request body: messages: ${detail}`, { code: "invalid-body", errors: [{ pointer: "#/messages", detail }] }), modelHeaders);
      }
    } else {
      const read = await readRequestBody(request, limit, toolNames);
      if (!read.ok) return respond(read.response, modelHeaders);
      body = read.body;
    }
    // valibot leaves absent optional members out, so the profile has no explicit undefined fields.
    const profile = body.profile as PlannerProfile | string | undefined;

    const { planner, tools } = createRequestPlanner(selected.model, registry, body);
    const controller = new AbortController();
    const onDisconnect = (): void => controller.abort(new Error("The client disconnected"));
    request.signal?.addEventListener("abort", onDisconnect, { once: true });
    const redact = createRedactor([env.OPENAI_API_KEY, env.PLANKIT_TOKEN]);
    const first = [{ type: "model", name: selected.name, provider: selected.provider }];
    const streamHeaders = {
      ...modelHeaders,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    };

    if (path === "/v1/plan") {
      const events = planner.stream({ query: body.query ?? "", tools, signal: controller.signal, ...(profile === undefined ? {} : { profile }) });
      const stream = createEventStream<PlannerEvent | StreamError>(endWithDone(events), {
        first,
        toData: (event) => (event.type === "step" ? event.step : event),
        redact,
        onCancel: onDisconnect,
      });
      return respond(new Response(stream), streamHeaders);
    }

    const runtime = new AgentRuntime({
      maxConcurrency: 8,
      timeoutMs: 20_000,
      budget: { deadlineMs: 90_000, modelCalls: 12, toolCalls: 40 },
      ...options.runtime,
      planner,
      registry,
      model: selected.model,
      ...(profile === undefined ? {} : { profile }),
    });
    const run = runtime.run(dialog ?? body.query ?? "", { signal: controller.signal });
    if (completion !== undefined) {
      const chunks = toChatCompletionChunks(redactEvents(run, redact, onDisconnect), { model: chatModelId, includeUsage: completion.includeUsage });
      const headers = { ...modelHeaders, "x-plankit-run-id": run.runId };
      return respond(completion.stream ? new Response(encodeChatCompletionStream(chunks), { headers: streamHeaders }) : Response.json(await collectChatCompletion(chunks)), headers);
    }
    if (dialog !== undefined) {
      return respond(toUIMessageStreamResponse(redactEvents(run, redact, onDisconnect)), { ...modelHeaders, "x-plankit-run-id": run.runId });
    }
    const stream = createEventStream(run, { first, redact, onCancel: onDisconnect });
    return respond(new Response(stream), { ...streamHeaders, "x-plankit-run-id": run.runId });
  }

  return {
    async fetch(request, env) {
      const url = new URL(request.url);
      const path = url.pathname;
      try {
        if (path === "/health") {
          if (request.method !== "GET" && request.method !== "HEAD") {
            return problemResponse(405, `/health does not accept ${request.method}; use GET`, { code: "method-not-allowed" }, { allow: "GET, HEAD" });
          }
          return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
        }
        if (Object.hasOwn(apiRoutes, path) || matchRunsRoute(path) !== undefined) return await handleApi(request, env, path);
        if (env.ASSETS !== undefined && (request.method === "GET" || request.method === "HEAD") && !path.startsWith("/v1/")) {
          const asset = await env.ASSETS.fetch(request);
          if (asset.status !== 404) return asset;
        }
        return problemResponse(404, `No route for ${request.method} ${path}`, { code: "not-found" });
      } catch {
        // The error may carry configuration details; the response must not.
        return problemResponse(500, "The request failed inside the Worker", { code: "internal-error" });
      }
    },
  };
}
