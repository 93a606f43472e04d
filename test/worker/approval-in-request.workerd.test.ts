import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import { noApproverReason } from "../../worker/routes/deny-approvals.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";

const origin = "https://plankit.test";
const noteQuery = "Save a note titled groceries with the text milk and eggs";
const workerEnv = env as unknown as WorkerEnv;

function post(path: string, body: unknown): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The `data` of every SSE message of a `/v1/run` body. */
async function runEvents(response: Response): Promise<Record<string, unknown>[]> {
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: {")))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe("a tool needing approval in a run answered in the request", () => {
  const guarded = createWorker({ ...demoWorkerOptions, runtime: { policy: { save_note: { approval: "plan" } } } });

  it("is denied at once on /v1/run: nobody can approve it there, and the run answers without it", async () => {
    const events = await runEvents(await guarded.fetch(post("/v1/run", { query: noteQuery }), workerEnv));
    const request = events.find((event) => event.type === "approval-request") as
      | { steps: { stepId: string; tool: string }[] }
      | undefined;
    expect(request?.steps.map((step) => step.tool)).toEqual(["save_note"]);
    const stepId = request?.steps[0]?.stepId;
    expect(events.find((event) => event.type === "approval-decision")).toMatchObject({
      stepId,
      approved: false,
      by: "caller",
      reason: noApproverReason,
    });
    expect(events.some((event) => event.type === "step-start" && event.stepId === stepId)).toBe(false);
    expect(events.find((event) => event.type === "step-skipped" && event.stepId === stepId)).toMatchObject({
      code: "denied",
    });
    expect(events.at(-1)).toMatchObject({ type: "run-end" });
    expect(events.some((event) => event.type === "reply")).toBe(true);
  }, 30_000);

  it("answers /v1/chat/completions without the denied step instead of waiting", async () => {
    const response = await guarded.fetch(
      post("/v1/chat/completions", { model: "plankit", messages: [{ role: "user", content: noteQuery }] }),
      workerEnv,
    );
    expect(response.status).toBe(200);
    const completion = JSON.parse(await response.text()) as {
      choices: { finish_reason: string; message: { content: string } }[];
    };
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.choices[0]?.message.content.length).toBeGreaterThan(0);
  }, 30_000);

  it("denies the demo's note at once on /v1/run: the demo's Worker gives its approval policy to every route", async () => {
    const events = await runEvents(
      await createWorker(demoWorkerOptions).fetch(
        post("/v1/run", { query: "Save a note titled bank with the text pay rent" }),
        workerEnv,
      ),
    );
    expect(events.find((event) => event.type === "approval-request")).toMatchObject({
      steps: [{ tool: "save_note" }],
    });
    expect(events.find((event) => event.type === "approval-decision")).toMatchObject({
      approved: false,
      by: "caller",
    });
    expect(events.some((event) => event.type === "step-start")).toBe(false);
    const reply = events.find((event) => event.type === "reply") as { text: string } | undefined;
    expect(reply?.text).toMatch(/Not done: step s1 \(save_note\) did not run/u);
    expect(reply?.text).toContain("Nobody can approve");
    expect(reply?.text).not.toMatch(/I saved the note/u);
  }, 30_000);

  it("runs the note step without asking when the Worker's policy marks nothing", async () => {
    const events = await runEvents(
      await createWorker({ ...demoWorkerOptions, runtime: { policy: {} } }).fetch(
        post("/v1/run", { query: noteQuery }),
        workerEnv,
      ),
    );
    expect(events.some((event) => event.type === "approval-request")).toBe(false);
    expect(events.some((event) => event.type === "step-end")).toBe(true);
  }, 30_000);
});
