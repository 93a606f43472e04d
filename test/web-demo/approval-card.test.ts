import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovalRequestEvent } from "../../src/events.ts";
import { createRunState } from "../../src/events.ts";
import { AgentRuntime, LLMPlanner, type RuntimeEvent } from "../../src/index.ts";
import { describeRunStatus } from "../../web-demo/describe-run-status.ts";
import { parseEditedArguments } from "../../web-demo/parse-edited-arguments.ts";
import { runInBrowser } from "../../web-demo/run-in-browser.ts";
import { runOnWorker } from "../../web-demo/run-on-worker.ts";
import { stopStepViews } from "../../web-demo/stop-step-views.ts";
import { toApprovalCard } from "../../web-demo/to-approval-card.ts";
import { toStepViews } from "../../web-demo/to-step-views.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";
import { demoApprovalPolicy } from "../../worker/demo/demo-approval-policy.ts";

const noteQuery = "Save a note titled groceries with the text milk and eggs";
const tools = createDemoTools().list();

/** Starts a note-saving run with the demo's approval policy and reads it until it waits for a decision. */
async function untilWaiting(options: { approvalTimeoutMs?: number } = {}) {
  const model = createDemoModel({ tokensPerSecond: Infinity });
  const registry = createDemoTools();
  const runtime = new AgentRuntime({
    planner: new LLMPlanner({ model }),
    registry,
    model,
    policy: demoApprovalPolicy,
    ...options,
  });
  const run = runtime.run(noteQuery);
  const iterator = run[Symbol.asyncIterator]();
  const reducer = createRunState();
  let request: ApprovalRequestEvent | undefined;
  const rest = async (): Promise<RuntimeEvent[]> => {
    const events: RuntimeEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      reducer.apply(next.value);
      events.push(next.value);
    }
    return events;
  };
  while (request === undefined) {
    const next = await iterator.next();
    if (next.done === true) throw new Error("the run ended without asking");
    reducer.apply(next.value);
    if (next.value.type === "approval-request") request = next.value;
  }
  return { run, reducer, request, rest };
}

describe("toApprovalCard", () => {
  it("lists the waiting step with its readable arguments and why it needs approval, and the graph marks it", async () => {
    const { run, reducer, request, rest } = await untilWaiting();
    const card = toApprovalCard(request, reducer.state, { tools });
    expect(card.phase).toBe("open");
    expect(card.heading).toBe("Approval needed: 1 step with side effects");
    expect(card.summary).toBe(
      "The plan is complete. This step waits for your decision; steps that need none keep running.",
    );
    expect(card.steps).toHaveLength(1);
    const [step] = card.steps;
    expect(step).toMatchObject({
      stepId: "s1",
      tool: "save_note",
      status: "requested",
      outcome: "",
      arguments: { title: "groceries", text: "milk and eggs" },
    });
    expect(step?.lines).toEqual([
      { name: "title", value: "groceries", waitsOn: [] },
      { name: "text", value: "milk and eggs", waitsOn: [] },
    ]);
    expect(step?.why).toBe(
      "save_note changes state and may overwrite or delete data, so the application asks a person before it runs; one approval covers it for this plan.",
    );
    const views = toStepViews(reducer.state);
    expect(views.map((view) => [view.id, view.state, view.note])).toEqual([
      ["s1", "approval", "waits for your approval"],
      ["s2", "waiting", "waits for s1"],
    ]);
    expect(describeRunStatus(reducer.state)).toBe("Waiting for your approval of 1 step…");
    expect(stopStepViews(views).map((view) => view.state)).toEqual(["aborted", "aborted"]);
    run.approve({ stepId: "s1", approved: true });
    await rest();
    const decided = toApprovalCard(request, reducer.state, { tools });
    expect(decided.phase).toBe("decided");
    expect(decided.summary).toBe("Approved: s1.");
    expect(decided.steps[0]).toMatchObject({ status: "approved", outcome: "approved" });
    expect(toStepViews(reducer.state).map((view) => view.state)).toEqual(["done", "done"]);
  });

  it("shows edited arguments as approved with edits", async () => {
    const { run, reducer, request, rest } = await untilWaiting();
    run.approve({ stepId: "s1", approved: true, arguments: { title: "shopping", text: "milk and eggs" } });
    await rest();
    const card = toApprovalCard(request, reducer.state, { tools });
    expect(card.steps[0]).toMatchObject({
      status: "approved",
      outcome: "approved with edited arguments",
      arguments: { title: "shopping", text: "milk and eggs" },
    });
    expect(card.steps[0]?.lines[0]).toEqual({ name: "title", value: "shopping", waitsOn: [] });
    expect(reducer.state.reply?.text).toBe('I saved the note "shopping" (13 characters).');
  });

  it("marks a denied step skipped with the reason, in the card and the graph", async () => {
    const { run, reducer, request, rest } = await untilWaiting();
    run.approve({ stepId: "s1", approved: false, reason: "not today" });
    const events = await rest();
    expect(events.some((event) => event.type === "step-start" && event.stepId === "s1")).toBe(false);
    const card = toApprovalCard(request, reducer.state, { tools });
    expect(card.phase).toBe("decided");
    expect(card.summary).toBe("Denied: s1 (skipped, with the steps that use its results).");
    expect(card.steps[0]).toMatchObject({ status: "denied", outcome: "denied: not today" });
    expect(toStepViews(reducer.state)[0]).toMatchObject({ state: "skipped", note: "denied: not today" });
    expect(reducer.state.reply?.text).toBe("Not done: step s1 (save_note) did not run — denied (not today).");
  });

  it("says so when the approval times out", async () => {
    const { reducer, request, rest } = await untilWaiting({ approvalTimeoutMs: 1 });
    await rest();
    const card = toApprovalCard(request, reducer.state, { tools });
    expect(card.phase).toBe("timed-out");
    expect(card.summary).toBe(
      "The approval timed out: no decision came within 1 ms, so the waiting steps were denied and did not run.",
    );
    expect(card.steps[0]?.status).toBe("denied");
    expect(card.steps[0]?.outcome).toMatch(/^denied: No decision within 1 ms/u);
  });

  it("says the run ended before a decision when it is stopped or reaches its deadline", async () => {
    const { run, reducer, request, rest } = await untilWaiting();
    const stopped = toApprovalCard(request, reducer.state, { tools, stopped: true });
    expect(stopped).toMatchObject({
      phase: "ended",
      summary: "The run was stopped before a decision: the waiting steps did not run.",
    });
    expect(stopped.steps[0]).toMatchObject({ status: "stopped", outcome: "not run: the run ended before a decision" });
    const usage = { modelCalls: 1, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };
    reducer.apply({
      type: "run-end",
      runId: reducer.state.runId ?? "r",
      t: 300_000,
      reason: "deadline",
      durationMs: 300_000,
      usage,
    } as RuntimeEvent);
    expect(toApprovalCard(request, reducer.state, { tools })).toMatchObject({
      phase: "timed-out",
      summary:
        "The approval timed out: the run reached its deadline before a decision, so the waiting steps did not run.",
    });
    run.abort();
    expect((await rest()).at(-1)).toMatchObject({ type: "run-end", reason: "aborted" });
  });

  it("names the references an argument still waits on, and explains read-only and unknown tools", () => {
    const reducer = createRunState();
    const base = { runId: "r", t: 1 };
    reducer.apply({
      ...base,
      type: "step-planned",
      step: { id: "s1", type: "tool", name: "kb_lookup", arguments: { query: "x" } },
      index: 0,
      source: "plan",
      safe: true,
    });
    reducer.apply({
      ...base,
      type: "step-planned",
      step: { id: "s2", type: "tool", name: "mail", arguments: { to: "a@b.c", body: { text: "{{s1.value}}" } } },
      index: 1,
      source: "plan",
      safe: false,
    });
    const request: ApprovalRequestEvent = {
      ...base,
      type: "approval-request",
      requestId: "a1",
      source: "plan",
      attempt: 1,
      timeoutMs: 300_000,
      steps: [
        {
          stepId: "s1",
          tool: "kb_lookup",
          description: "Look up",
          arguments: { query: "x" },
          waiting: [],
          mode: "step",
        },
        {
          stepId: "s2",
          tool: "mail",
          description: "Send mail",
          arguments: { to: "a@b.c", body: { text: "{{s1.value}}" } },
          waiting: [{ pointer: "/body/text", reference: "{{s1.value}}" }],
          mode: "plan",
        },
      ],
    };
    reducer.apply(request);
    const card = toApprovalCard(request, reducer.state, { tools });
    expect(card.heading).toBe("Approval needed: 2 steps with side effects");
    expect(card.summary).toBe(
      "The plan is complete. These steps wait for your decision; steps that need none keep running. Without a decision within 5 min they are denied.",
    );
    expect(card.steps[0]?.why).toBe(
      "kb_lookup is read-only, but the application asks a person before it runs; it asks again if its resolved arguments differ from these.",
    );
    expect(card.steps[1]?.why).toBe(
      "mail changes state and may overwrite or delete data, so the application asks a person before it runs; one approval covers it for this plan.",
    );
    expect(card.steps[1]?.lines).toEqual([
      { name: "to", value: "a@b.c", waitsOn: [] },
      { name: "body", value: '{"text":"{{s1.value}}"}', waitsOn: ["{{s1.value}}"] },
    ]);
    expect(toStepViews(reducer.state).map((view) => view.note)).toEqual([
      "waits for your approval",
      "waits for your approval and for s1",
    ]);
  });
});

describe("parseEditedArguments", () => {
  it("accepts exactly the texts that are one JSON object", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 2);
        const parsed = parseEditedArguments("s1", text);
        const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
        expect(parsed.ok).toBe(isObject);
        // What the text says (JSON has no -0: it reads back as 0).
        if (parsed.ok) expect(parsed.arguments).toEqual(JSON.parse(text));
      }),
    );
  });

  it("names the step and what is wrong", () => {
    expect(parseEditedArguments("s1", "  ")).toEqual({
      ok: false,
      message: 'The arguments of s1 are empty: write them as one JSON object, like {"title": "…"}.',
    });
    const broken = parseEditedArguments("s1", '{"title": "shopping",}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.message).toMatch(/^The arguments of s1 are not valid JSON: .+\.$/u);
    expect(parseEditedArguments("s2", "[1]")).toEqual({
      ok: false,
      message: "The arguments of s2 must be one JSON object of the tool's arguments, not a list.",
    });
    expect(parseEditedArguments("s2", '"x"')).toEqual({
      ok: false,
      message: "The arguments of s2 must be one JSON object of the tool's arguments, not a string.",
    });
    expect(parseEditedArguments("s2", "null")).toEqual({
      ok: false,
      message: "The arguments of s2 must be one JSON object of the tool's arguments, not null.",
    });
  });
});

describe("runInBrowser", () => {
  it("asks before saving a note and refuses an invalid edit with the path, keeping the step waiting", async () => {
    const run = runInBrowser(noteQuery);
    const reducer = createRunState();
    for await (const event of run.events) {
      if (event.type === "model" || event.type === "error") continue;
      reducer.apply(event);
      if (event.type === "approval-request") {
        await expect(
          run.approve([{ stepId: "s1", approved: true, arguments: { title: 42, text: "milk" } }]),
        ).rejects.toThrow(/^The run refused the decision \(invalid-argument: .*"title".*\(\/title\)/u);
        expect(reducer.state.awaitingApproval).toEqual(["s1"]);
        await run.approve([{ stepId: "s1", approved: true }]);
      }
    }
    expect(reducer.state.reply?.text).toBe('I saved the note "groceries" (13 characters).');
  });
});

describe("runOnWorker", () => {
  /** Serves a session run from a list of SSE bodies, one per events request, recording the requests. */
  function fakeWorker(bodies: string[]) {
    const requests: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      requests.push(
        `${init?.method ?? "GET"} ${url.pathname}${url.search}${init?.body === undefined ? "" : ` ${String(init.body)}`}`,
      );
      if (url.pathname === "/v1/runs")
        return Response.json({ id: "run-1", session: "run-1", durable: false }, { status: 202 });
      if (url.pathname.endsWith("/approvals")) {
        return Response.json(
          {
            type: "about:blank",
            status: 400,
            code: "invalid-argument",
            detail:
              'Edited arguments of step "s1" (tool "save_note"): argument "title" is 42, expected string (/title)',
          },
          { status: 400 },
        );
      }
      const body = bodies.shift();
      return body === undefined
        ? new Response(null, { status: 204 })
        : new Response(body, { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch;
    return { requests, restore: () => (globalThis.fetch = original) };
  }

  const sse = (id: number, event: object): string =>
    `id: ${id}\nevent: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`;
  const usage = { modelCalls: 1, toolCalls: 0, cacheHits: 0, replans: 0, inputTokens: 0, outputTokens: 0 };

  it("starts a session run, resumes its events after the last id, and shows a refused decision's detail", async () => {
    const worker = fakeWorker([
      sse(1, { type: "model", name: "demo", provider: "demo" }) +
        sse(2, { type: "plan-start", runId: "run-1", t: 1, kind: "plan", query: "q", attempt: 1 }),
      ": keep-alive\n\n" + sse(3, { type: "run-end", runId: "run-1", t: 2, reason: "completed", durationMs: 2, usage }),
    ]);
    try {
      const run = runOnWorker("q", { baseUrl: "http://127.0.0.1:8787/" });
      const types: string[] = [];
      for await (const event of run.events) types.push(event.type);
      expect(types).toEqual(["model", "plan-start", "run-end"]);
      await expect(run.approve([{ stepId: "s1", approved: true, arguments: { title: 42 } }])).rejects.toThrow(
        'The Worker refused the request (400: Edited arguments of step "s1" (tool "save_note"): argument "title" is 42, expected string (/title))',
      );
      expect(worker.requests).toEqual([
        'POST /v1/runs {"query":"q","durable":false}',
        "GET /v1/runs/run-1/events",
        "GET /v1/runs/run-1/events?after=2",
        'POST /v1/runs/run-1/approvals {"decisions":[{"stepId":"s1","approved":true,"arguments":{"title":42}}]}',
      ]);
    } finally {
      worker.restore();
    }
  });

  it("gives up on a stream that keeps ending without events, naming the run", async () => {
    const worker = fakeWorker([
      sse(1, { type: "model", name: "demo", provider: "demo" }),
      ": keep-alive\n\n",
      ": keep-alive\n\n",
      ": keep-alive\n\n",
      ": keep-alive\n\n",
    ]);
    try {
      const run = runOnWorker("q", { baseUrl: "http://127.0.0.1:8787/" });
      const types: string[] = [];
      await expect(
        (async () => {
          for await (const event of run.events) types.push(event.type);
        })(),
      ).rejects.toThrow("The Worker's event stream of run run-1 keeps ending before the run does");
      expect(types).toEqual(["model"]);
      expect(worker.requests.filter((line) => line.startsWith("GET"))).toEqual([
        "GET /v1/runs/run-1/events",
        "GET /v1/runs/run-1/events?after=1",
        "GET /v1/runs/run-1/events?after=1",
        "GET /v1/runs/run-1/events?after=1",
      ]);
    } finally {
      worker.restore();
    }
  });

  it("cancels the run on the Worker when stopped", async () => {
    const controller = new AbortController();
    const worker = fakeWorker([
      sse(1, { type: "model", name: "demo", provider: "demo" }) +
        sse(2, { type: "plan-start", runId: "run-1", t: 1, kind: "plan", query: "q", attempt: 1 }),
    ]);
    try {
      const run = runOnWorker("q", { baseUrl: "http://127.0.0.1:8787/", signal: controller.signal });
      for await (const event of run.events) {
        if (event.type === "plan-start") controller.abort();
      }
      await Promise.resolve();
      expect(worker.requests).toContain("POST /v1/runs/run-1/cancel");
    } finally {
      worker.restore();
    }
  });
});
