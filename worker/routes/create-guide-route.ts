/**
 * `POST /v1/guide`.
 *
 * @module
 */
import { createGuidedConversation, type GuidedEvent } from "../../src/decide.ts";
import { abortOnDisconnect } from "../http/abort-on-disconnect.ts";
import { createEventStream } from "../http/create-event-stream.ts";
import { eventStreamHeaders } from "../http/event-stream-headers.ts";
import { createGuideBodySchema } from "../http/guide-body-schema.ts";
import { keepAlive } from "../http/keep-alive.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { trackEnd } from "../http/track-end.ts";
import { streamGuidedTurn } from "../stream-guided-turn.ts";
import type { GuideOptions } from "../worker-options.ts";
import type { WorkerRoute } from "./worker-route.ts";

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
 * `POST /v1/guide` (`{ message, state? }`): one turn of the guided
 * conversation the application gives (the demo's is a trip guide) as
 * Server-Sent Events: `model` and `playbook` (its phases) first, then the
 * turn's events (`turn-start`, `decision`, `skill-start`, `skill-end`,
 * `skill-error`, `phase-change`, `reply`) and `turn-end` last, with the
 * reply and the new state; the turn id in `x-plankit-turn-id`. The Worker
 * keeps nothing: the client sends the state back with its next message. A
 * client that goes away aborts the turn.
 *
 * @param guide - the playbook, its skills and the tools of a turn.
 * @returns the route.
 *
 * @example
 * ```ts
 * const route = createGuideRoute({ playbook, skills, createTools: () => createMyTools() });
 * ```
 */
export function createGuideRoute(guide: GuideOptions): WorkerRoute {
  const { playbook, skills } = guide;
  const bodySchema = createGuideBodySchema(playbook, skills);
  const playbookEvent = {
    type: "playbook",
    id: playbook.id,
    name: playbook.name,
    phases: playbook.phases.map((phase) => ({
      id: phase.id,
      description: phase.description,
      checkpoints: phase.checkpoints ?? [],
    })),
  };
  return {
    method: "POST",
    path: "/v1/guide",
    errors: "problem-details",
    body: "api",
    handle: async (c) => {
      const body = await readJsonBody(c.req.raw, bodySchema, '{"message":"…"}');
      const { selected } = c.var;
      const controller = abortOnDisconnect(c.var.signal);
      const turnId = createTurnId();
      const conversation = createGuidedConversation({
        playbook,
        skills,
        registry: guide.createTools(),
        model: selected.model,
        idGenerator: () => turnId,
      });
      const events = streamGuidedTurn(conversation, body.message, {
        state: body.state ?? {},
        signal: controller.signal,
      });
      const first = [{ type: "model", name: selected.name, provider: selected.provider }, playbookEvent];
      // Kept alive until the turn has ended or the client has gone (and the turn is aborted).
      const tracked = trackEnd(events, controller.signal);
      keepAlive(c, tracked.ended);
      const stream = createEventStream<GuidedEvent>(tracked.events, {
        first,
        onCancel: () => controller.abort(new Error("The client disconnected")),
      });
      return new Response(stream, { headers: { ...eventStreamHeaders, "x-plankit-turn-id": turnId } });
    },
  };
}
