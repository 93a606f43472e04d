import { describe, expect, it } from "vitest";
import { type RunState, replay } from "../../src/events.ts";
import { AgentRuntime, LLMPlanner } from "../../src/index.ts";
import { createRunStore, type RunStore } from "../../src/ui.ts";
import { describeAnswer } from "../../web-demo/describe-answer.ts";
import { runInBrowser } from "../../web-demo/run-in-browser.ts";
import { startOnWorker } from "../../web-demo/start-on-worker.ts";
import { createDemoModel } from "../../worker/demo/create-demo-model.ts";
import { createDemoTools } from "../../worker/demo/create-demo-tools.ts";

const noteQuery = "Save a note titled groceries with the text milk and eggs";

/** Resolves when the store's run waits for a decision. */
function untilAsked(store: RunStore): Promise<RunState> {
  return new Promise((resolve) => {
    const check = () => {
      const state = store.getSnapshot();
      if (state.awaitingApproval.length > 0) {
        unsubscribe();
        resolve(state);
      }
    };
    const unsubscribe = store.subscribe(check);
  });
}

describe("runInBrowser, through the page's store", () => {
  it("asks before saving a note, refuses an invalid edit with the path, and runs the edited arguments", async () => {
    const store = createRunStore(runInBrowser(noteQuery));
    const asked = await untilAsked(store);
    expect(asked.awaitingApproval).toEqual(["s1"]);
    await expect(
      store.approve([{ stepId: "s1", approved: true, arguments: { title: 42, text: "milk" } }]),
    ).rejects.toThrow(/"title".*\(\/title\)/u);
    expect(store.getSnapshot().awaitingApproval).toEqual(["s1"]);
    await store.approve([{ stepId: "s1", approved: true, arguments: { title: "shopping", text: "milk and eggs" } }]);
    const state = await store.done;
    expect(state.reply?.text).toBe('I saved the note "shopping" (13 characters).');
    expect(state.steps[0]?.approval?.arguments).toEqual({ title: "shopping", text: "milk and eggs" });
  }, 30_000);
});

describe("startOnWorker", () => {
  it("starts a session run and answers its event stream's URL; a refusal names the Worker's problem", async () => {
    const requests: string[] = [];
    const original = globalThis.fetch;
    let refuse = false;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      requests.push(`${init?.method ?? "GET"} ${url.href} ${String(init?.body)}`);
      if (refuse)
        return Response.json({ status: 401, code: "missing-token", detail: "Send a bearer token" }, { status: 401 });
      return Response.json({ id: "run 1", session: "run 1", durable: false }, { status: 202 });
    }) as typeof fetch;
    try {
      expect(await startOnWorker("q", { baseUrl: "http://127.0.0.1:8787/demo/" })).toBe(
        "http://127.0.0.1:8787/v1/runs/run%201/events",
      );
      expect(requests).toEqual(['POST http://127.0.0.1:8787/v1/runs {"query":"q","durable":false}']);
      refuse = true;
      await expect(startOnWorker("q", { baseUrl: "http://127.0.0.1:8787/" })).rejects.toThrow(
        "The Worker refused the request (401: Send a bearer token)",
      );
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe("describeAnswer", () => {
  /** Runs a request with the demo model and tools. */
  async function answer(query: string): Promise<RunState> {
    const model = createDemoModel({ tokensPerSecond: Infinity });
    const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry: createDemoTools(), model });
    return createRunStore(runtime.run(query)).done;
  }

  it("says in one short line that no tool fits when the demo model declines", async () => {
    const state = await answer("Write me a poem");
    expect(state.reply?.text.length).toBeGreaterThan(200);
    expect(describeAnswer(state)).toEqual({
      text: "No tool fits this request, so none ran: the model answered in words.",
      declined: true,
    });
  });

  it("names the tools whose results made the answer", async () => {
    const state = await answer("compare the populations of Tokyo and Paris and compute their ratio");
    expect(describeAnswer(state)).toEqual({
      text: "Answered from 3 tool results: kb_lookup ×2, calculator.",
      declined: false,
    });
  });

  it("says that no result went into the answer when the look-up failed", async () => {
    const state = await answer("What is the population of Atlantis?");
    expect(describeAnswer(state)).toEqual({
      text: "No tool result went into this answer (1 failed).",
      declined: false,
    });
  });

  it("counts a denied step as the person's choice", async () => {
    const store = createRunStore(runInBrowser(noteQuery));
    await untilAsked(store);
    await store.approve([{ stepId: "s1", approved: false, reason: "not today" }]);
    expect(describeAnswer(await store.done).text).toBe("No tool result went into this answer (1 denied by you).");
  }, 30_000);

  it("says nothing before the reply", () => {
    expect(describeAnswer(replay([])).text).toBe("");
  });
});
