import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DecisionState } from "../../src/decide.ts";
import type { PlanModel } from "../../src/model.ts";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { type SseMessage as Message, parseStrictSse as parseSse } from "./parse-strict-sse.ts";

const origin = "https://plankit.test";
const fast: WorkerEnv = { PLANKIT_DEMO_TOKENS_PER_SECOND: "Infinity" };
const worker = createWorker(demoWorkerOptions);

function guide(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}/v1/guide`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function turn(
  message: string,
  state?: DecisionState,
  handler = worker,
): Promise<{ response: Response; messages: Message[]; end: Message["data"] }> {
  const response = await handler.fetch(guide(state === undefined ? { message } : { message, state }), fast);
  expect(response.status).toBe(200);
  const messages = parseSse(await response.text());
  const end = messages.at(-1);
  expect(end?.event).toBe("turn-end");
  return { response, messages, end: end?.data ?? {} };
}

async function problem(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return (await response.json()) as Record<string, unknown>;
}

describe("POST /v1/guide", () => {
  it("streams one turn: model and playbook first, the turn's events, turn-end last with the reply and the state", async () => {
    const { response, messages, end } = await turn("Hi!");
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-plankit-model")).toBe("plankit-demo (offline, scripted)");
    const turnId = response.headers.get("x-plankit-turn-id");
    expect(turnId).toMatch(/^turn_/);
    expect(messages.map((message) => message.event)).toEqual([
      "model",
      "playbook",
      "turn-start",
      "decision",
      "reply",
      "turn-end",
    ]);
    expect(messages.map((message) => message.id)).toEqual(messages.map((_, index) => String(index)));
    expect(messages[1]?.data).toEqual({
      type: "playbook",
      id: "trip-guide",
      name: "Trip planning intake",
      phases: [
        {
          id: "collect",
          description: "Where and when the traveller wants to go",
          checkpoints: ["destination", "dates"],
        },
        { id: "research", description: "Facts about the destination from the knowledge base", checkpoints: ["facts"] },
        { id: "summarize", description: "A summary of the trip", checkpoints: ["summary"] },
      ],
    });
    for (const message of messages.slice(2))
      expect(message.data).toMatchObject({ type: message.event, turnId, t: expect.any(Number) });
    expect(messages[3]?.data["trace"]).toMatchObject({
      type: "decision-made",
      phase: "collect",
      strategy: "llm_planner",
      action: "respond",
    });
    expect(messages[4]?.data).toMatchObject({
      action: "respond",
      source: "model",
      text: "Hello! I'm the offline demo trip guide. Where would you like to go, and when?",
    });
    expect(end).toMatchObject({
      phase: "collect",
      finished: false,
      reply: "Hello! I'm the offline demo trip guide. Where would you like to go, and when?",
      state: { current_task_id: "collect" },
    });
  });

  it("carries the conversation through the state the client sends back, to the summary", async () => {
    const first = await turn("I'd like to go to Tokyo");
    expect(
      first.messages
        .filter((message) => message.event === "skill-end")
        .map((message) => [message.data["skill"], message.data["changed"]]),
    ).toEqual([
      ["read_destination", ["destination"]],
      ["read_dates", []],
    ]);
    expect(first.end["reply"]).toBe("Tokyo — noted. When are you travelling? For example 2026-05-01 to 2026-05-08.");
    const second = await turn("from 2026-05-01 to 2026-05-08", first.end["state"] as DecisionState);
    const phases = second.messages
      .filter((message) => message.event === "phase-change")
      .map((message) => `${String(message.data["from"])}→${String(message.data["to"])}`);
    expect(phases).toEqual(["collect→research", "research→summarize"]);
    expect(second.end).toMatchObject({
      phase: "summarize",
      finished: true,
      usage: { decisions: 6, toolCalls: 3, modelCalls: 1 },
    });
    expect(second.end["reply"]).toMatch(
      /Here is your trip: Trip to Tokyo from 2026-05-01 to 2026-05-08 \(7 nights\)\./,
    );
    const state = second.end["state"] as DecisionState;
    expect(state.data?.["summarize_trip"]?.["summary"]).toMatch(/^Trip to Tokyo/);
    const after = await turn("thanks", state);
    expect(after.end).toMatchObject({ finished: true, usage: { decisions: 1, toolCalls: 0 } });
  });

  it("answers a side question in query mode without moving the phase", async () => {
    const { messages, end } = await turn("How tall is Mount Fuji?", { current_task_id: "collect", _query_mode: true });
    expect(
      messages
        .filter((message) => message.event === "decision")
        .map((message) => (message.data["trace"] as { strategy: string }).strategy),
    ).toEqual(["query_mode", "query_mode"]);
    expect(end).toMatchObject({ phase: "collect", finished: false });
    expect(end["reply"]).toBe(
      "Mount Fuji is 3,776 m high. (Source: Geospatial Information Authority of Japan) Where would you like to go, and when?",
    );
  });

  it("ends a failed turn with turn-end carrying the error and the state it was given", async () => {
    const state = { current_task_id: "collect", force_skill: "summarize_trip" };
    const { messages, end } = await turn("go", state);
    expect(messages.map((message) => message.event)).toEqual(["model", "playbook", "turn-start", "turn-end"]);
    expect(end).toMatchObject({ finished: false, state, error: { code: "unavailable-skill" } });
    expect(String((end["error"] as { message: string }).message)).toContain('phase "collect" does not allow it');
  });

  it("uses the configured model for both the choice and the reply", async () => {
    const prompts: string[] = [];
    const model: PlanModel = {
      async *stream(request) {
        prompts.push(request.system ?? "");
        yield {
          type: "text",
          text: prompts.length === 1 ? '{"action":"respond","reason":"just chatting"}' : "Bonjour !",
        };
        yield { type: "finish", reason: "stop" };
      },
    };
    const custom = createWorker({
      ...demoWorkerOptions,
      selectModel: () => ({ model, name: "custom", provider: "test" }),
    });
    const { response, end } = await turn("salut", undefined, custom);
    expect(response.headers.get("x-plankit-model")).toBe("custom");
    expect(end["reply"]).toBe("Bonjour !");
    expect(prompts.map((system) => system.split("\n")[0])).toEqual([
      "You choose the next action of a guided conversation that runs in phases.",
      "You write the assistant's next message in a guided conversation that runs in phases.",
    ]);
  });

  it("refuses bad bodies with problem details naming the field", async () => {
    const cases: [unknown, string][] = [
      [{}, "#/message"],
      [{ message: "  " }, "#/message"],
      [{ message: "hi", state: { current_task_id: "checkout" } }, "#/state/current_task_id"],
      [{ message: "hi", state: { force_skill: "book_flight" } }, "#/state/force_skill"],
      [{ message: "hi", state: { profile: "Ada" } }, "#/state/profile"],
      [{ message: "hi", history: [] }, "#/history"],
    ];
    for (const [body, pointer] of cases) {
      const response = await worker.fetch(guide(body), fast);
      expect(response.status).toBe(400);
      const details = await problem(response);
      expect(details["code"]).toBe("invalid-body");
      expect((details["errors"] as { pointer: string }[]).map((error) => error.pointer)).toContain(pointer);
    }
    const notJson = await worker.fetch(guide("[1]"), fast);
    expect(await problem(notJson)).toMatchObject({
      code: "invalid-body",
      detail: 'The body must be a JSON object such as {"message":"…"}',
    });
    const text = await worker.fetch(guide("hi", { "content-type": "text/plain" }), fast);
    expect(text.status).toBe(415);
    const large = await worker.fetch(guide({ message: "x".repeat(300) }), { ...fast, PLANKIT_MAX_BODY_BYTES: "100" });
    expect(large.status).toBe(413);
  });

  it("is POST-only, behind the token and CORS like the other routes, and served through workerd", async () => {
    const get = await worker.fetch(new Request(`${origin}/v1/guide`), fast);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    const locked = await worker.fetch(guide({ message: "hi" }), { ...fast, PLANKIT_TOKEN: "a-long-enough-token" });
    expect(locked.status).toBe(401);
    const foreign = await worker.fetch(guide({ message: "hi" }, { origin: "https://elsewhere.test" }), {
      ...fast,
      PLANKIT_CORS_ORIGINS: "https://app.test",
    });
    expect(foreign.status).toBe(403);
    const through = await SELF.fetch(guide({ message: "to Oslo from 2026-06-01 to 2026-06-03" }));
    expect(through.status).toBe(200);
    const messages = parseSse(await through.text());
    expect(messages.at(-1)?.data).toMatchObject({ type: "turn-end", finished: true, phase: "summarize" });
  });
});
