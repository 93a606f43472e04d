import { describe, expect, it } from "vitest";
import { renamePatch } from "../../../src/runtime/run/apply-replan.ts";
import { ReplyStream } from "../../../src/runtime/run/reply-stream.ts";
import type { EntryStatus } from "../../../src/runtime/run/step-table.ts";

describe("ReplyStream", () => {
  it("writes text at once and each reference when its step succeeded, in order; the pieces join to the resolved text", () => {
    const results = new Map<string, unknown>([["context", { user: "Ann" }]]);
    const status = new Map<string, EntryStatus>();
    const statusOf = (id: string): EntryStatus | undefined => status.get(id);
    const reply = new ReplyStream("Hi {{context.user}}: {{a.n}} and {{b}}!");
    expect(reply.advance(results, statusOf)).toBe("Hi Ann: ");
    results.set("b", { x: 1 });
    status.set("b", "succeeded");
    expect(reply.advance(results, statusOf)).toBe("");
    results.set("a", { n: 5 });
    status.set("a", "succeeded");
    expect(reply.advance(results, statusOf)).toBe('5 and {"x":1}!');
    expect(reply.written).toBe('Hi Ann: 5 and {"x":1}!');
  });

  it("writes notes for failed, skipped and unfinished steps when it must finish", () => {
    const status = new Map<string, EntryStatus>([
      ["a", "failed"],
      ["b", "skipped"],
      ["c", "running"],
    ]);
    const reply = new ReplyStream("{{a}} {{b}} {{c}}");
    expect(reply.advance(new Map(), (id) => status.get(id), true)).toBe(
      '[step "a" failed] [step "b" was skipped] [step "c" did not finish]',
    );
  });

  it("does not stream a text that is exactly one reference", () => {
    expect([
      ReplyStream.streamable("{{s1}}"),
      ReplyStream.streamable("x {{s1}}"),
      ReplyStream.streamable("plain"),
    ]).toEqual([false, true, true]);
  });
});

describe("renamePatch", () => {
  it("renames taken ids and the later references to them", () => {
    const { steps, renamed } = renamePatch(
      [
        { id: "s2", type: "tool", name: "t", arguments: {} },
        { id: "s3", type: "tool", name: "t", arguments: { x: "{{s2.value}}", y: "{{ s1 }}" }, dependsOn: ["s2"] },
        { id: "s2_r1", type: "reply", text: "{{s3}}" },
      ],
      1,
      (id) => id === "s1" || id === "s2" || id === "s3",
    );
    expect(renamed).toEqual({ s2: "s2_r1_2", s3: "s3_r1" });
    expect(steps.map((step) => step.id)).toEqual(["s2_r1_2", "s3_r1", "s2_r1"]);
    expect(steps[1]).toMatchObject({ arguments: { x: "{{s2_r1_2.value}}", y: "{{ s1 }}" }, dependsOn: ["s2_r1_2"] });
    expect(steps[2]).toMatchObject({ text: "{{s3_r1}}" });
  });
});
