import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import type { ApprovalDecision } from "../../src/events/approval-decision.ts";
import { encodeSse } from "../../src/events/encode-sse.ts";
import { replay } from "../../src/events/replay.ts";
import type { RuntimeEvent } from "../../src/events/runtime-event.ts";
import { toJsonl } from "../../src/events/to-jsonl.ts";
import { createRunStore } from "../../src/ui/create-run-store.ts";
import { runEvents, splitBytes, streamOf } from "./run-event-arbitrary.ts";

const encoder = new TextEncoder();

/** The events as an SSE stream's text, ids counting from 0. */
function sseText(events: readonly RuntimeEvent[]): string {
  return events.map((event, index) => encodeSse(event, index)).join("");
}

/** An async iterable of the events, one per microtask. */
async function* iterate(events: readonly RuntimeEvent[]): AsyncGenerator<RuntimeEvent> {
  for (const event of events) yield event;
}

describe("createRunStore: the snapshot is replay(events)", () => {
  it("for any events, SSE or JSONL, LF or CRLF, split at any bytes", async () => {
    await fc.assert(
      fc.asyncProperty(
        runEvents,
        fc.constantFrom("sse", "jsonl"),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (events, format, crlf, cuts) => {
          let text = format === "sse" ? sseText(events) : toJsonl(events);
          if (crlf) text = text.replaceAll("\n", "\r\n");
          const store = createRunStore(streamOf(splitBytes(encoder.encode(text), cuts)));
          const state = await store.done;
          expect(store.getConnection()).toEqual({ status: "done" });
          expect(state).toEqual(replay(events));
          expect(store.getSnapshot()).toBe(state);
          expect(store.events).toEqual(events);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("for any events read from a Response of text pieces, by its content type", async () => {
    await fc.assert(
      fc.asyncProperty(runEvents, fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (events, sse, cuts) => {
        const text = sse ? sseText(events) : toJsonl(events);
        const pieces = splitBytes(encoder.encode(text), cuts).map((piece) => new TextDecoder().decode(piece));
        // Text pieces that cut a character are decoded on their own: rebuild cuts at character boundaries instead.
        const whole = pieces.join("") === text ? pieces : [text];
        const response = new Response(streamOf(whole).pipeThrough(new TextEncoderStream()), {
          headers: { "content-type": sse ? "text/event-stream" : "application/x-ndjson" },
        });
        const state = await createRunStore(response).done;
        expect(state).toEqual(replay(events));
      }),
      { numRuns: 60 },
    );
  });

  it("from an async iterable, after every event, and keeps unchanged steps and snapshots by identity", async () => {
    await fc.assert(
      fc.asyncProperty(runEvents, async (events) => {
        const store = createRunStore(iterate(events), { lazy: true });
        const seen: number[] = [];
        let previous = store.getSnapshot();
        store.subscribe(() => {
          const snapshot = store.getSnapshot();
          expect(snapshot).toEqual(replay(store.events));
          // Between two events nothing changes, so the same object comes back.
          expect(store.getSnapshot()).toBe(snapshot);
          for (const step of snapshot.steps) {
            const before = previous.steps.find(
              (candidate) => candidate.step.id === step.step.id && candidate.index === step.index,
            );
            if (before !== undefined && JSON.stringify(before) !== JSON.stringify(step)) expect(step).not.toBe(before);
          }
          previous = snapshot;
          seen.push(store.events.length);
        });
        const state = await store.done;
        expect(state).toEqual(replay(events));
        expect(seen.at(-1)).toBe(events.length);
      }),
      { numRuns: 60 },
    );
  });

  it("gives the same step object again when an event leaves that step alone", async () => {
    const events: RuntimeEvent[] = [
      {
        type: "step-planned",
        runId: "r",
        t: 0,
        step: { id: "s1", type: "tool", name: "a", arguments: {} },
        index: 0,
        source: "plan",
        safe: true,
      },
      {
        type: "step-planned",
        runId: "r",
        t: 1,
        step: { id: "s2", type: "tool", name: "b", arguments: {} },
        index: 1,
        source: "plan",
        safe: true,
      },
    ];
    const stream = new TransformStream<RuntimeEvent, RuntimeEvent>();
    const live = createRunStore(
      stream.readable.pipeThrough(
        new TransformStream<RuntimeEvent, string>({
          transform: (event, controller) => controller.enqueue(`${JSON.stringify(event)}\n`),
        }),
      ),
    );
    const writer = stream.writable.getWriter();
    await writer.write(events[0] as RuntimeEvent);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const first = live.getSnapshot();
    expect(first.steps.map((step) => step.step.id)).toEqual(["s1"]);
    await writer.write(events[1] as RuntimeEvent);
    await writer.close();
    const second = await live.done;
    expect(second).not.toBe(first);
    expect(second.steps[0]).toBe(first.steps[0]);
  });
});

describe("createRunStore: reading failures", () => {
  it("names the line that is not an event, and keeps what came before", async () => {
    const text = `${JSON.stringify({ type: "plan-start", runId: "r", t: 0, kind: "plan", query: "q", attempt: 1 })}\n[1, 2]\n`;
    const store = createRunStore(streamOf([text]));
    const state = await store.done;
    expect(state.query).toBe("q");
    const connection = store.getConnection();
    expect(connection.status).toBe("failed");
    expect(PlankitError.isInstance(connection.error) && connection.error.code).toBe("json-syntax");
    expect(connection.error?.message).toBe(
      'Line 2 of the JSONL stream is not a run event (an object with a string "type"): "[1, 2]"',
    );
  });

  it("names a failed response by its URL and status, not by a method it cannot know (a POST's, often)", async () => {
    const refused = createRunStore(
      Response.json({ code: "invalid-body", detail: "query is required (#/query)" }, { status: 400 }),
    );
    await refused.done;
    expect(refused.getConnection().status).toBe("failed");
    expect(refused.getConnection().error?.message).toBe(
      "the response answered 400 invalid-body: query is required (#/query)",
    );
  });

  it("refuses a source of another kind, naming it", () => {
    expect(() => createRunStore(42 as never)).toThrow(
      "createRunStore: the source must be a RunHandle, an AsyncIterable of events, a Response, a ReadableStream or a URL, not number",
    );
  });

  it("close() stops reading without an error", async () => {
    const store = createRunStore(
      new ReadableStream<string>({
        start: (controller) =>
          controller.enqueue('{"type":"plan-start","runId":"r","t":0,"kind":"plan","query":"q","attempt":1}\n'),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.close();
    const state = await store.done;
    expect(state.query).toBe("q");
    expect(store.getConnection()).toEqual({ status: "closed" });
  });
});

/** A fake `…/v1/runs/r1` server: the event stream honours Last-Event-ID and drops where told; approvals and cancel are recorded. */
function fakeRunServer(events: readonly RuntimeEvent[], drops: { afterEvents: number; cutBytes: number }[]) {
  const requests: {
    url: string;
    method: string;
    lastEventId: string | null;
    authorization: string | null;
    body?: unknown;
  }[] = [];
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const record: (typeof requests)[number] = {
      url: request.url,
      method: request.method,
      lastEventId: request.headers.get("last-event-id"),
      authorization: request.headers.get("authorization"),
    };
    requests.push(record);
    if (request.method === "POST") {
      record.body = await request.json();
      if (
        request.url.endsWith("/approvals") &&
        (record.body as { decisions: ApprovalDecision[] }).decisions.some((decision) => decision.stepId === "s9")
      ) {
        return Response.json(
          { code: "invalid-approval", detail: 'Step "s9" is not waiting for approval' },
          { status: 409, headers: { "content-type": "application/problem+json" } },
        );
      }
      return Response.json({ ok: true }, { status: 202 });
    }
    const after = record.lastEventId === null ? 0 : Number(record.lastEventId) + 1;
    if (after >= events.length) return new Response(null, { status: 204 });
    const drop = drops.shift();
    const rest = events.slice(after).map((event, index) => encodeSse(event, after + index));
    let text = `retry: 5\n\n${rest.join("")}`;
    if (drop !== undefined)
      text = `retry: 5\n\n${rest.slice(0, drop.afterEvents).join("")}${(rest[drop.afterEvents] ?? "").slice(0, drop.cutBytes)}`;
    const bytes = encoder.encode(text);
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(bytes);
          return;
        }
        // A dropped connection errors the body after what it delivered; one at the end of the log just ends.
        if (drop !== undefined) controller.error(new TypeError("network connection lost"));
        else controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  return { requests, fetcher };
}

describe("createRunStore: lazy stores and signals", () => {
  it("a lazy store reads nothing before the first subscribe, then everything", async () => {
    let pulled = 0;
    async function* counted(): AsyncGenerator<RuntimeEvent> {
      pulled++;
      yield { type: "plan-start", runId: "r", t: 0, kind: "plan", query: "q", attempt: 1 };
    }
    const store = createRunStore(counted(), { lazy: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pulled).toBe(0);
    expect(store.getSnapshot()).toEqual(replay([]));
    const unsubscribe = store.subscribe(() => {});
    expect((await store.done).query).toBe("q");
    expect(pulled).toBe(1);
    unsubscribe();
  });

  it("an aborted signal closes the store, before or while it reads", async () => {
    const early = createRunStore(iterate([]), { signal: AbortSignal.abort() });
    await early.done;
    expect(early.getConnection()).toEqual({ status: "closed" });
    const controller = new AbortController();
    const never = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<RuntimeEvent>>(() => {}) }),
    };
    const waiting = createRunStore(never, { signal: controller.signal });
    controller.abort();
    await waiting.done;
    expect(waiting.getConnection()).toEqual({ status: "closed" });
  });
});

describe("createRunStore from a run's event-stream URL", () => {
  it("resumes after any dropped stream: every event once, in order, the 204 ends it", async () => {
    await fc.assert(
      fc.asyncProperty(
        runEvents,
        fc.array(fc.record({ afterEvents: fc.nat(30), cutBytes: fc.nat(200) }), { maxLength: 4 }),
        async (events, drops) => {
          // The log without its run-end: the stream then ends open and the resume past the end answers 204.
          const log = events.slice(0, -1);
          const server = fakeRunServer(
            log,
            drops.map((drop) => ({
              afterEvents: Math.min(drop.afterEvents, Math.max(0, log.length - 1)),
              cutBytes: drop.cutBytes,
            })),
          );
          const delays: number[] = [];
          const store = createRunStore("https://api.test/v1/runs/r1/events", {
            fetch: server.fetcher,
            token: "t0k",
            delay: async (ms) => void delays.push(ms),
            maxRetries: 10,
          });
          const state = await store.done;
          expect(store.getConnection()).toEqual({ status: "done" });
          expect(store.events).toEqual(log);
          expect(state).toEqual(replay(log));
          expect(server.requests.every((request) => request.authorization === "Bearer t0k")).toBe(true);
          expect(server.requests.at(-1)?.lastEventId ?? "-1").toBe(String(log.length - 1));
          // The server's `retry: 5` replaced the default wait.
          expect(delays.every((ms) => ms >= 5 && ms <= 40)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("stops at run-end without asking again", async () => {
    const events: RuntimeEvent[] = [
      { type: "plan-start", runId: "r1", t: 0, kind: "plan", query: "q", attempt: 1 },
      {
        type: "run-end",
        runId: "r1",
        t: 1,
        reason: "completed",
        usage: { modelCalls: 0, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 },
        durationMs: 1,
      },
    ];
    const server = fakeRunServer(events, [{ afterEvents: 1, cutBytes: 10 }]);
    const store = createRunStore(new URL("https://api.test/v1/runs/r1/events"), {
      fetch: server.fetcher,
      delay: async () => undefined,
    });
    await store.done;
    expect(server.requests.map((request) => request.lastEventId)).toEqual([null, "0"]);
    expect(store.events).toEqual(events);
  });

  it("fails with the server's problem on a 4xx, and gives up after maxRetries failures in a row", async () => {
    const unauthorized = createRunStore("https://api.test/v1/runs/r1/events", {
      fetch: async () =>
        Response.json({ code: "missing-token", detail: "Send Authorization: Bearer <token>" }, { status: 401 }),
    });
    await unauthorized.done;
    expect(unauthorized.getConnection().error?.message).toBe(
      "GET https://api.test/v1/runs/r1/events answered 401 missing-token: Send Authorization: Bearer <token>",
    );
    let calls = 0;
    const down = createRunStore("https://api.test/v1/runs/r1/events", {
      fetch: async () => {
        calls++;
        return new Response("upstream down", { status: 503 });
      },
      maxRetries: 2,
      delay: async () => undefined,
    });
    await down.done;
    expect(calls).toBe(3);
    expect(down.getConnection().error?.message).toBe(
      "Gave up reading https://api.test/v1/runs/r1/events after 3 failed connections in a row: GET https://api.test/v1/runs/r1/events answered 503 upstream down",
    );
  });

  it("posts decisions to …/approvals and stop to …/cancel, with the token, and names a refusal", async () => {
    const server = fakeRunServer([], []);
    const store = createRunStore("https://api.test/v1/runs/r1/events?after=3", {
      fetch: server.fetcher,
      token: "t0k",
      delay: async () => undefined,
    });
    await store.done;
    expect(store.canApprove && store.canStop).toBe(true);
    await store.approve({ stepId: "s1", approved: true, arguments: { text: "milk" } });
    await store.stop();
    expect(
      server.requests.slice(1).map(({ url, method, body, authorization }) => ({ url, method, body, authorization })),
    ).toEqual([
      {
        url: "https://api.test/v1/runs/r1/approvals",
        method: "POST",
        body: { decisions: [{ stepId: "s1", approved: true, arguments: { text: "milk" } }] },
        authorization: "Bearer t0k",
      },
      { url: "https://api.test/v1/runs/r1/cancel", method: "POST", body: {}, authorization: "Bearer t0k" },
    ]);
    const refused = await store
      .approve([{ stepId: "s9", approved: false, reason: "no" }])
      .catch((error: unknown) => error);
    expect(PlankitError.isInstance(refused) && refused.code).toBe("invalid-approval");
    expect((refused as Error).message).toBe(
      'POST https://api.test/v1/runs/r1/approvals answered 409 invalid-approval: Step "s9" is not waiting for approval',
    );
  });
});

describe("createRunStore: approve and stop", () => {
  it("go to the run handle it reads", async () => {
    const decided: unknown[] = [];
    const aborted: (string | undefined)[] = [];
    const handle = {
      [Symbol.asyncIterator]: () => iterate([])[Symbol.asyncIterator](),
      approve: (decisions: unknown) => void decided.push(decisions),
      abort: (reason?: string) => void aborted.push(reason),
    };
    const store = createRunStore(handle);
    await store.approve({ stepId: "s2", approved: false, reason: "not now" });
    await store.stop();
    expect(decided).toEqual([[{ stepId: "s2", approved: false, reason: "not now" }]]);
    expect(aborted).toEqual(["Stopped from the run view"]);
  });

  it("go to the callbacks the app gives, and fail clearly without any target", async () => {
    const calls: unknown[] = [];
    const store = createRunStore(iterate([]), {
      onApprove: (decisions) => void calls.push(decisions),
      onStop: () => void calls.push("stop"),
    });
    await store.approve([{ stepId: "s1", approved: true }]);
    await store.stop();
    expect(calls).toEqual([[{ stepId: "s1", approved: true }], "stop"]);
    const bare = createRunStore(iterate([]));
    expect(bare.canApprove || bare.canStop).toBe(false);
    await expect(bare.approve({ stepId: "s1", approved: true })).rejects.toThrow(
      "approve: this store's source has nowhere to send decisions",
    );
    await expect(bare.stop()).rejects.toThrow("stop: this store's source has nowhere to send a stop");
  });
});
