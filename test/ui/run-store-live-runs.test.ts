/**
 * The run store over live runs of an `AgentRuntime` (the `LLMPlanner` with
 * the scripted model): for any plan of read-only, failing and approval-bound
 * tools, any person's answers (approve, edit, deny, deny and re-plan, stop)
 * and any re-plan allowance, read from the run handle or from events pushed
 * into a feed, every snapshot a listener sees is `replay` of the events so
 * far and is never changed afterwards, the steps the store says wait for a
 * person are the steps asked about and not started, and the last snapshot is
 * the run's own state.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RunState, replay } from "../../src/events.ts";
import { AgentRuntime, LLMPlanner, noOpReflector, PlankitError } from "../../src/index.ts";
import { createEventFeed, createRunStore, type RunStore } from "../../src/ui.ts";
import { liveRunModel, liveRunPlans, liveRunRegistry } from "./live-run-fixtures.ts";

type Answer = "approve" | "edit" | "deny" | "replan" | "stop";

const registry = liveRunRegistry();

const plans = liveRunPlans(5);

/** What a listener saw: the snapshot, how many events the store had, and the snapshot as JSON then. */
interface Seen {
  snapshot: RunState;
  events: number;
  json: string;
}

/**
 * Answers each request for a step the store says waits, once, with the next answer (approve when they run out).
 *
 * @param store - the store.
 * @param answers - the answers, in order.
 * @param refused - where refusals are collected.
 */
function answerFrom(store: RunStore, answers: Answer[], refused: unknown[]): () => void {
  const answered = new Set<string>();
  return () => {
    const state = store.getSnapshot();
    for (const stepId of state.awaitingApproval) {
      // A step is asked again, in a new request, when its resolved arguments differ from those shown.
      const request = `${state.steps.find((step) => step.step.id === stepId)?.approval?.requestId}:${stepId}`;
      if (answered.has(request)) continue;
      answered.add(request);
      const answer = answers.shift() ?? "approve";
      const sent =
        answer === "stop"
          ? store.stop()
          : store.approve(
              answer === "approve"
                ? { stepId, approved: true }
                : answer === "edit"
                  ? { stepId, approved: true, arguments: { text: "edited" } }
                  : { stepId, approved: false, reason: "not now", ...(answer === "replan" ? { replan: true } : {}) },
            );
      sent.catch((error: unknown) => refused.push(error));
    }
  };
}

describe("createRunStore over live runs", () => {
  it("for any plan, answers and re-plans, from the run handle or a feed: every snapshot is replay(events so far)", async () => {
    await fc.assert(
      fc.asyncProperty(
        plans,
        fc.array(fc.constantFrom<Answer>("approve", "edit", "deny", "replan", "stop"), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom("handle", "feed"),
        async (plan, answers, maxReplans, via) => {
          const model = liveRunModel(plan);
          const runtime = new AgentRuntime({
            planner: new LLMPlanner({ model }),
            registry,
            memory: false,
            reflector: noOpReflector,
            integrate: "template",
            maxReplans,
            backoff: { initialMs: 1, maxMs: 1, jitter: 0 },
            policy: { note: { approval: "plan" }, mail: { approval: "step" } },
          });
          const run = runtime.run("Note the facts and mail them");
          let store: RunStore;
          let pushed = Promise.resolve();
          if (via === "handle") store = createRunStore(run, { lazy: true });
          else {
            const feed = createEventFeed();
            store = createRunStore(feed, {
              lazy: true,
              onApprove: (decisions) => run.approve(decisions),
              onStop: () => run.abort("Stopped"),
            });
            pushed = (async () => {
              for await (const event of run) feed.push(event);
              feed.end();
            })();
          }
          const seen: Seen[] = [];
          const refused: unknown[] = [];
          const answer = answerFrom(store, [...answers], refused);
          store.subscribe(() => {
            const snapshot = store.getSnapshot();
            seen.push({ snapshot, events: store.events.length, json: JSON.stringify(snapshot) });
            answer();
          });
          const state = await store.done;
          await pushed;
          const live = await run.done;

          expect(store.getConnection()).toEqual({ status: "done" });
          expect(store.events).toEqual(run.events);
          expect(state).toEqual(live);
          expect(state).toEqual(replay(store.events));
          expect(state.status).toBe("ended");
          expect(state.awaitingApproval).toEqual([]);
          for (const { snapshot, events, json } of seen) {
            expect(snapshot).toEqual(replay(store.events.slice(0, events)));
            expect(JSON.stringify(snapshot)).toBe(json);
            expect(new Set(snapshot.awaitingApproval).size).toBe(snapshot.awaitingApproval.length);
            for (const stepId of snapshot.awaitingApproval) {
              const step = snapshot.steps.find((candidate) => candidate.step.id === stepId);
              expect(step?.approval?.status, stepId).toBe("requested");
              expect(step?.status, stepId).toBe("planned");
            }
          }
          // A decision can only be refused because the run moved on before the store caught up.
          for (const error of refused) expect(PlankitError.isInstance(error) && error.code).toBe("invalid-approval");
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});
