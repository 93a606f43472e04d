import {
  evictDurableObject,
  introspectWorkflow,
  runDurableObjectAlarm,
  runInDurableObject,
  SELF,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseRunId } from "../../worker/runs/parse-run-id.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";
import { invariantProblems } from "../runtime/fake-planner.ts";
import { type Message, readMessages, runtimeEvents } from "./read-messages.ts";

const origin = "https://plankit.test";
const noteQuery = "Save a note titled groceries with the text milk and eggs";
const bindings = env as unknown as Required<Pick<WorkerEnv, "PLAN_SESSION" | "PLAN_WORKFLOW">>;

function post(path: string, body: unknown): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function startSessionRun(query: string, durable = false): Promise<string> {
  const response = await SELF.fetch(post("/v1/runs", { query, durable }));
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

/** Reads a run's events after `after` until `stop` holds for one (then disconnects) or the log ends. */
async function readEvents(
  id: string,
  after: number,
  stop: (message: Message) => boolean = () => false,
): Promise<Message[]> {
  return readMessages(
    await SELF.fetch(new Request(`${origin}/v1/runs/${id}/events`, { headers: { "last-event-id": String(after) } })),
    stop,
  );
}

/** Starts a note-saving run (in the session object, or durable) and reads up to its approval request. */
async function untilApprovalRequest(durable = false): Promise<{ id: string; head: Message[]; stepId: string }> {
  const id = await startSessionRun(noteQuery, durable);
  const head = await readEvents(id, 0, (message) => message.event === "approval-request");
  const request = head.at(-1)?.data as {
    type: string;
    steps: { stepId: string; tool: string; arguments: Record<string, unknown>; mode: string }[];
  };
  expect(request.type).toBe("approval-request");
  expect(request.steps.map((step) => [step.tool, step.mode])).toEqual([["save_note", "plan"]]);
  const stepId = request.steps[0]?.stepId ?? "";
  // Nothing of the note step has started before its decision.
  expect(runtimeEvents(head).some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
  return { id, head, stepId };
}

describe("POST /v1/runs/:id/approvals on a session run", () => {
  it("asks before saving a note, refuses bad decisions, and runs the step once approved", async () => {
    const { id, head, stepId } = await untilApprovalRequest();

    const badBody = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: "yes" }] }));
    expect(badBody.status).toBe(400);
    expect(badBody.headers.get("content-type")).toContain("application/problem+json");
    expect(((await badBody.json()) as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual([
      "#/decisions/0/approved",
    ]);
    const empty = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [] }));
    expect(empty.status).toBe(400);
    // A body without decisions says they are missing; one with another member names it.
    for (const [body, message] of [
      [{}, "decisions is required"],
      [{ decisions: [{ stepId, approved: true }], approve: true }, 'unknown member "approve"'],
    ] as const) {
      const response = await SELF.fetch(post(`/v1/runs/${id}/approvals`, body));
      expect(response.status).toBe(400);
      const errors = ((await response.json()) as { errors: { detail: string }[] }).errors;
      expect(errors.map((error) => error.detail).join("; ")).toContain(message);
    }

    const unknownStep = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId: "s99", approved: true }] }),
    );
    expect(unknownStep.status).toBe(409);
    expect(await unknownStep.json()).toMatchObject({ code: "invalid-approval", stepId: "s99" });

    const badEdit = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true, arguments: { text: 42 } }] }),
    );
    expect(badEdit.status).toBe(400);
    const badEditProblem = (await badEdit.json()) as { code: string; detail: string };
    expect(badEditProblem.code).toBe("invalid-argument");
    expect(badEditProblem.detail).toContain(stepId);

    const approved = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true }] }));
    expect(approved.status).toBe(202);
    expect(await approved.json()).toMatchObject({ id, decisions: [{ stepId, approved: true }], awaitingApproval: [] });

    const rest = await readEvents(id, head.at(-1)?.id ?? 0);
    const log = runtimeEvents([...head, ...rest]);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.find((event) => event.type === "approval-decision")).toMatchObject({ stepId, approved: true });
    expect(log.find((event) => event.type === "step-end" && event.stepId === stepId)).toBeDefined();
    expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });

    const late = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true }] }));
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "run-ended" });
  }, 30_000);

  it("skips a denied step with the reason, and answers 404 for an unknown run", async () => {
    const { id, head, stepId } = await untilApprovalRequest();
    const denied = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: false, reason: "not today" }] }),
    );
    expect(denied.status).toBe(202);
    const log = runtimeEvents([...head, ...(await readEvents(id, head.at(-1)?.id ?? 0))]);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
    expect(log.find((event) => event.type === "step-skipped" && event.stepId === stepId)).toMatchObject({
      code: "denied",
      reason: expect.stringContaining("not today"),
    });
    expect(log.at(-1)).toMatchObject({ type: "run-end" });

    const unknown = await SELF.fetch(
      post("/v1/runs/run-00000000000000000000000000000000/approvals", {
        decisions: [{ stepId: "s1", approved: true }],
      }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "unknown-run" });
  }, 30_000);
});

/** The run's report from `GET /v1/runs/:id`. */
async function report(id: string): Promise<{
  workflow?: { status: string };
  run: { ended: boolean; replayedEvents: number; events: number; steps: { id: string; status: string }[] };
}> {
  const response = await SELF.fetch(`${origin}/v1/runs/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Awaited<ReturnType<typeof report>>;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms: ${String(check)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("POST /v1/runs/:id/approvals on a durable run", () => {
  it("waits in step.waitForEvent, survives a restart of its instance and of the session object while waiting, and continues after the approval", async () => {
    const { id, head, stepId } = await untilApprovalRequest(true);
    expect(head.at(-1)?.data).toMatchObject({ timeoutMs: 7 * 24 * 60 * 60 * 1000 });

    // What is simulated: the engine tears the execution down while it waits (a pause), then runs the instance again
    // from its stored steps (resume) — the replay re-plans nothing and reaches the same wait; and the session object,
    // which holds the log, is evicted from memory and comes back from its storage.
    const instance = await bindings.PLAN_WORKFLOW.get(id);
    await instance.pause();
    await waitFor(async () => (await instance.status()).status === "paused");
    await instance.resume();
    // The replay re-sent every event up to the request (the log ignored them) before it waits again.
    await waitFor(async () => (await report(id)).run.replayedEvents >= runtimeEvents(head).length);
    const session = bindings.PLAN_SESSION.get(bindings.PLAN_SESSION.idFromName(parseRunId(id)?.session ?? ""));
    await evictDurableObject(session);

    // While its only open run waits for a person, the session object checks on it every 15 minutes, not every 30 s.
    const alarmAt = (): Promise<number | null> =>
      runInDurableObject(session, (_instance, state) => state.storage.getAlarm());
    expect(await runDurableObjectAlarm(session)).toBe(true);
    expect(((await alarmAt()) ?? 0) - Date.now()).toBeGreaterThan(10 * 60_000);

    const badEdit = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true, arguments: { text: 42 } }] }),
    );
    expect(badEdit.status).toBe(400);
    expect(await badEdit.json()).toMatchObject({
      code: "invalid-argument",
      stepId,
      detail: expect.stringContaining("(/text)"),
    });
    const unknownStep = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId: "s99", approved: true }] }),
    );
    expect(unknownStep.status).toBe(409);
    expect(await unknownStep.json()).toMatchObject({ code: "invalid-approval", stepId: "s99" });

    const approved = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true }] }));
    expect(approved.status).toBe(202);
    expect(await approved.json()).toMatchObject({ id, decisions: [{ stepId, approved: true }], awaitingApproval: [] });
    expect(((await alarmAt()) ?? Number.POSITIVE_INFINITY) - Date.now()).toBeLessThanOrEqual(30_000);
    // The same step again, whether or not the run has applied the first decision yet.
    const twice = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: false }] }));
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ code: "invalid-approval", stepId });

    const log = runtimeEvents([...head, ...(await readEvents(id, head.at(-1)?.id ?? 0))]);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.filter((event) => event.type === "plan-start")).toHaveLength(1);
    expect(log.filter((event) => event.type === "approval-request")).toHaveLength(1);
    expect(log.filter((event) => event.type === "approval-decision")).toMatchObject([
      { stepId, approved: true, by: "caller" },
    ]);
    expect(log.filter((event) => event.type === "step-start" && event.stepId === stepId)).toHaveLength(1);
    expect(log.find((event) => event.type === "step-end" && event.stepId === stepId)).toBeDefined();
    expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    await waitFor(async () => (await report(id)).workflow?.status === "complete");

    const late = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true }] }));
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "run-ended" });
  }, 60_000);

  it("skips a denied step and its dependents with the reason", async () => {
    const { id, head, stepId } = await untilApprovalRequest(true);
    const denied = await SELF.fetch(
      post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: false, reason: "not today" }] }),
    );
    expect(denied.status).toBe(202);
    const log = runtimeEvents([...head, ...(await readEvents(id, head.at(-1)?.id ?? 0))]);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
    expect(log.find((event) => event.type === "approval-decision")).toMatchObject({
      stepId,
      approved: false,
      reason: "not today",
      by: "caller",
    });
    expect(log.find((event) => event.type === "step-skipped" && event.stepId === stepId)).toMatchObject({
      code: "denied",
      reason: expect.stringContaining("not today"),
    });
    const dependents = log.filter((event) => event.type === "step-skipped" && event.stepId !== stepId);
    expect(dependents.length).toBeGreaterThan(0);
    for (const event of dependents) expect(event).toMatchObject({ code: "dependency-failed" });
    expect(log.at(-1)).toMatchObject({ type: "run-end" });
  }, 60_000);

  it("denies the waiting step when the wait times out", async () => {
    const introspector = await introspectWorkflow(bindings.PLAN_WORKFLOW);
    try {
      await introspector.modifyAll(async (modifier) => {
        await modifier.forceEventTimeout({ name: "approval" });
      });
      const id = await startSessionRun(noteQuery, true);
      const log = runtimeEvents(await readEvents(id, 0));
      expect(invariantProblems(log)).toEqual([]);
      const request = log.find((event) => event.type === "approval-request");
      const stepId = request?.type === "approval-request" ? request.steps[0]?.stepId : undefined;
      expect(stepId).toBeDefined();
      expect(log.find((event) => event.type === "approval-decision")).toMatchObject({
        stepId,
        approved: false,
        by: "timeout",
        reason: `No decision within ${7 * 24 * 60 * 60 * 1000} ms`,
      });
      expect(log.find((event) => event.type === "step-skipped" && event.stepId === stepId)).toMatchObject({
        code: "denied",
      });
      expect(log.some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
      expect(log.at(-1)).toMatchObject({ type: "run-end" });
    } finally {
      await introspector.dispose();
    }
  }, 60_000);
});
