import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { invariantProblems } from "../runtime/fake-planner.ts";
import { type Message, readMessages, runtimeEvents } from "./read-messages.ts";
import { origin, post } from "./worker-requests.workerd.ts";

/** Plans a lookup (s1), a note that quotes it (s2, waits for approval) and a reply that quotes both (s3). */
const query = "How tall is the Eiffel Tower and save it as a note";

async function readEvents(id: string, after: number, stop?: (message: Message) => boolean): Promise<Message[]> {
  const response = await SELF.fetch(`${origin}/v1/runs/${id}/events`, { headers: { "last-event-id": String(after) } });
  return readMessages(response, stop);
}

describe("edited arguments that reach beyond the step's dependencies are a bad request", () => {
  for (const durable of [false, true]) {
    it(`answers 400 invalid-argument naming the step and the path, and applies nothing (${durable ? "durable" : "session"} run)`, async () => {
      const started = await post("/v1/runs", { query, durable });
      expect(started.status).toBe(202);
      const { id, links } = (await started.json()) as { id: string; links: Record<string, string> };
      // The answer links every route of the run, the one that decides its steps included.
      expect(links).toEqual({
        self: `/v1/runs/${id}`,
        events: `/v1/runs/${id}/events`,
        cancel: `/v1/runs/${id}/cancel`,
        approvals: `/v1/runs/${id}/approvals`,
      });
      const head = await readEvents(id, 0, (message) => message.event === "approval-request");
      const request = head.at(-1)?.data as { steps: { stepId: string; tool: string }[] };
      expect(request.steps).toMatchObject([{ stepId: "s2", tool: "save_note" }]);

      for (const text of ["{{s3}}", "{{s2.title}}"]) {
        const widened = await post(`/v1/runs/${id}/approvals`, {
          decisions: [{ stepId: "s2", approved: true, arguments: { title: "tower", text } }],
        });
        expect(widened.status).toBe(400);
        expect(await widened.json()).toMatchObject({
          code: "invalid-argument",
          stepId: "s2",
          detail: expect.stringContaining("which it does not depend on (/text)"),
        });
      }

      const approved = await post(`/v1/runs/${id}/approvals`, {
        decisions: [{ stepId: "s2", approved: true, arguments: { title: "tower", text: "Height: {{s1.value}} m" } }],
      });
      expect(approved.status).toBe(202);
      const log = runtimeEvents([...head, ...(await readEvents(id, head.at(-1)?.id ?? 0))]);
      expect(invariantProblems(log)).toEqual([]);
      expect(log.filter((event) => event.type === "approval-decision")).toHaveLength(1);
      expect(log.filter((event) => event.type === "step-start" && event.stepId === "s2")).toHaveLength(1);
      expect(log.find((event) => event.type === "step-end" && event.stepId === "s2")).toMatchObject({
        result: { title: "tower", chars: "Height: 330 m".length },
      });
      expect(log.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    }, 60_000);
  }
});
