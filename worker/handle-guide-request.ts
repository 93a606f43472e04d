/**
 * `POST /v1/guide`: one turn of the guided demo conversation.
 *
 * @module
 */
import { createGuidedConversation, type GuidedEvent } from "../src/index.ts";
import { createGuideTools } from "./demo/create-guide-tools.ts";
import { tripGuidePlaybook } from "./demo/trip-guide-playbook.ts";
import { tripGuideSkills } from "./demo/trip-guide-skills.ts";
import { createEventStream } from "./http/create-event-stream.ts";
import { createGuideBodySchema } from "./http/guide-body-schema.ts";
import { readJsonBody } from "./http/read-json-body.ts";
import { createRedactor } from "./http/redact-secrets.ts";
import type { SelectedModel } from "./select-model.ts";
import { streamGuidedTurn } from "./stream-guided-turn.ts";

/** What {@link handleGuideRequest} needs from the Worker. */
export interface GuideRequestOptions {
  /** The model: the `llm_planner` strategy and the replies ask it. */
  selected: SelectedModel;
  /** The most body bytes accepted. */
  limit: number;
  /** Values redacted from everything streamed back (the API key, the token). */
  secrets: readonly (string | undefined)[];
}

/**
 * Makes a turn id.
 *
 * @returns `turn_` and a UUID (or a random string where `crypto.randomUUID` is missing).
 */
function createTurnId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `turn_${uuid ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`}`;
}

/**
 * Runs one turn of the trip guide — a playbook that collects the destination
 * and dates, looks up facts in the demo knowledge base, summarizes and
 * finishes — on `{ message, state? }`, and streams it as Server-Sent Events:
 * `model` and `playbook` (its phases) first, then the turn's events
 * (`turn-start`, `decision`, `skill-start`, `skill-end`, `skill-error`,
 * `phase-change`, `reply`) and `turn-end` last, with the reply and the new
 * state. The Worker keeps nothing: the client sends the state back with its
 * next message. A client that disconnects aborts the turn.
 *
 * @param request - the request.
 * @param options - the model, the body limit and the secrets to redact.
 * @returns the event stream, or a problem response for a bad body.
 * @example
 * ```ts
 * if (path === "/v1/guide") return handleGuideRequest(request, { selected, limit: 16_384, secrets: [env.OPENAI_API_KEY] });
 * ```
 */
export async function handleGuideRequest(request: Request, options: GuideRequestOptions): Promise<Response> {
  const read = await readJsonBody(request, options.limit, createGuideBodySchema(tripGuidePlaybook, tripGuideSkills), '{"message":"…"}');
  if (!read.ok) return read.response;
  const controller = new AbortController();
  const onDisconnect = (): void => controller.abort(new Error("The client disconnected"));
  request.signal?.addEventListener("abort", onDisconnect, { once: true });
  const turnId = createTurnId();
  const conversation = createGuidedConversation({
    playbook: tripGuidePlaybook,
    skills: tripGuideSkills,
    registry: createGuideTools(),
    model: options.selected.model,
    idGenerator: () => turnId,
  });
  const events = streamGuidedTurn(conversation, read.body.message, { state: read.body.state ?? {}, signal: controller.signal });
  const first = [
    { type: "model", name: options.selected.name, provider: options.selected.provider },
    {
      type: "playbook",
      id: tripGuidePlaybook.id,
      name: tripGuidePlaybook.name,
      phases: tripGuidePlaybook.phases.map((phase) => ({ id: phase.id, description: phase.description, checkpoints: phase.checkpoints ?? [] })),
    },
  ];
  const stream = createEventStream<GuidedEvent>(events, { first, redact: createRedactor(options.secrets), onCancel: onDisconnect });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      "x-plankit-turn-id": turnId,
    },
  });
}
