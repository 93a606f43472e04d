import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { invariantProblems } from "../runtime/fake-planner.ts";
import { readMessages, runtimeEvents, type Message } from "./read-messages.ts";

const origin = "https://plankit.test";
const noteQuery = "Save a note titled groceries with the text milk and eggs";

function post(path: string, body: unknown): Request {
  return new Request(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function startSessionRun(query: string): Promise<string> {
  const response = await SELF.fetch(post("/v1/runs", { query, durable: false }));
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

/** Reads a run's events after `after` until `stop` holds for one (then disconnects) or the log ends. */
async function readEvents(id: string, after: number, stop: (message: Message) => boolean = () => false): Promise<Message[]> {
  return readMessages(await SELF.fetch(new Request(`${origin}/v1/runs/${id}/events`, { headers: { "last-event-id": String(after) } })), stop);
}


/** Starts a note-saving session run and reads up to its approval request. */
async function untilApprovalRequest(): Promise<{ id: string; head: Message[]; stepId: string }> {
  const id = await startSessionRun(noteQuery);
  const head = await readEvents(id, 0, (message) => message.event === "approval-request");
  const request = head.at(-1)?.data as { type: string; steps: { stepId: string; tool: string; arguments: Record<string, unknown>; mode: string }[] };
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
    expect(((await badBody.json()) as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual(["#/decisions/0/approved"]);
    const empty = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [] }));
    expect(empty.status).toBe(400);

    const unknownStep = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId: "s99", approved: true }] }));
    expect(unknownStep.status).toBe(409);
    expect(await unknownStep.json()).toMatchObject({ code: "invalid-approval", stepId: "s99" });

    const badEdit = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: true, arguments: { text: 42 } }] }));
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

  it("skips a denied step with the reason, refuses durable runs, and answers 404 for an unknown run", async () => {
    const { id, head, stepId } = await untilApprovalRequest();
    const denied = await SELF.fetch(post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId, approved: false, reason: "not today" }] }));
    expect(denied.status).toBe(202);
    const log = runtimeEvents([...head, ...(await readEvents(id, head.at(-1)?.id ?? 0))]);
    expect(invariantProblems(log)).toEqual([]);
    expect(log.some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
    expect(log.find((event) => event.type === "step-skipped" && event.stepId === stepId)).toMatchObject({ code: "denied", reason: expect.stringContaining("not today") });
    expect(log.at(-1)).toMatchObject({ type: "run-end" });

    const durable = await SELF.fetch(post("/v1/runs", { query: "What is 2+2?" }));
    const durableId = ((await durable.json()) as { id: string }).id;
    const refused = await SELF.fetch(post(`/v1/runs/${durableId}/approvals`, { decisions: [{ stepId: "s1", approved: true }] }));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "approval-unsupported" });
    await readEvents(durableId, 0);

    const unknown = await SELF.fetch(post("/v1/runs/run-00000000000000000000000000000000/approvals", { decisions: [{ stepId: "s1", approved: true }] }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "unknown-run" });
  }, 30_000);
});
