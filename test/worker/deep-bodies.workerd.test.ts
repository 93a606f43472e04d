import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readMessages } from "./read-messages.ts";
import { origin, post } from "./worker-requests.workerd.ts";

/** `{"a":{"a":…1…}}`, `depth` objects deep: a few kilobytes, well under the body limit. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

/** The pointer of the value past the limit under `base`: `base/a/a/…`. */
const pointerUnder = (base: string) => new RegExp(`^${base}(?:/a){60,}$`, "u");

describe("a body nested far deeper than any request needs", () => {
  it("is a 400 naming where, not a crash of the guide's turn", async () => {
    const response = await post("/v1/guide", { message: "hi", state: { data: nested(2500) } });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; detail: string; errors: { pointer: string }[] };
    expect(problem.code).toBe("invalid-body");
    expect(problem.detail).toContain("nests deeper than 64 levels");
    expect(problem.errors[0]?.pointer).toMatch(pointerUnder("#/state/data"));
  });

  for (const durable of [false, true]) {
    it(`is a 400 for edited arguments of an approval, not a 500, and the step still waits (${durable ? "durable" : "session"} run)`, async () => {
      const started = await post("/v1/runs", { query: "Save a note titled bank with the text pay rent", durable });
      const { id } = (await started.json()) as { id: string };
      const head = await readMessages(
        await SELF.fetch(`${origin}/v1/runs/${id}/events`),
        (message) => message.event === "approval-request",
      );
      expect(head.at(-1)?.event).toBe("approval-request");
      const deep = await post(`/v1/runs/${id}/approvals`, {
        decisions: [{ stepId: "s1", approved: true, arguments: { title: "bank", text: nested(2500) } }],
      });
      expect(deep.status).toBe(400);
      const problem = (await deep.json()) as { code: string; errors: { pointer: string }[] };
      expect(problem.code).toBe("invalid-body");
      expect(problem.errors[0]?.pointer).toMatch(pointerUnder("#/decisions/0/arguments/text"));
      const approved = await post(`/v1/runs/${id}/approvals`, { decisions: [{ stepId: "s1", approved: true }] });
      expect(approved.status).toBe(202);
    }, 30_000);
  }

  it("comes in OpenAI's shape on the OpenAI route, naming the parameter", async () => {
    const response = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "What is 2+2?" }],
      metadata: nested(100),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; param: string; message: string } };
    expect(error.code).toBe("invalid_body");
    expect(error.param).toMatch(/^metadata(?:\.a){64}$/u);
    expect(error.message).toContain("nests deeper than 64 levels");
  });

  it("lets a body 64 levels deep through", async () => {
    const response = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "What is 2+2?" }],
      metadata: nested(62),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("2 + 2 = 4");
  });
});
