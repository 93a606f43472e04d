import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlankitError } from "../../src/errors/plankit-error.ts";
import { readDialog } from "../../src/runtime/read-dialog.ts";

/** The message of what `readDialog` throws. */
function refusal(dialog: unknown): string {
  try {
    readDialog(dialog as never);
  } catch (error) {
    expect(PlankitError.isInstance(error) && error.code).toBe("invalid-input");
    return (error as Error).message;
  }
  throw new Error("readDialog took it");
}

describe("readDialog", () => {
  it("takes a string as the request, and the last user message of a conversation with the ten turns before it", () => {
    expect(readDialog("Weather?")).toEqual({ query: "Weather?", history: "" });
    const turns = Array.from({ length: 12 }, (_, index) => ({
      role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `m${index}`,
    }));
    expect(readDialog([...turns, { role: "user", content: "last" }, { role: "assistant", content: "after" }])).toEqual({
      query: "last",
      history: turns
        .slice(2)
        .map((turn) => `${turn.role}: ${turn.content}`)
        .join("\n"),
    });
  });

  it("names what it cannot read as a dialog, instead of failing inside", () => {
    expect(refusal({ query: "Weather?" })).toBe(
      'run: the dialog must be the request as a string or an array of { role, content } messages, got {"query":"Weather?"}',
    );
    expect(refusal(undefined)).toContain("got undefined");
    expect(refusal([{ role: "user", content: "a" }, "b"])).toBe(
      'run: dialog[1] must be a message with role "user", "assistant" or "system", got "b"',
    );
    expect(refusal([{ role: "tool", content: "a" }])).toContain('dialog[0] must be a message with role "user"');
    expect(refusal([{ role: "user", content: [{ type: "text", text: "hi" }] }])).toBe(
      'run: dialog[0].content must be a string, got [{"type":"text","text":"hi"}]',
    );
    expect(refusal([{ role: "assistant", content: "Hello" }])).toBe(
      "run: the conversation has no user message (1 message(s))",
    );
    expect(refusal([])).toBe("run: the conversation has no user message (0 message(s))");
    expect(refusal("  \n")).toBe('run: the request is blank ("  \\n")');
    expect(
      refusal([
        { role: "user", content: "a" },
        { role: "user", content: " " },
      ]),
    ).toBe("run: the last user message, dialog[1], is blank");
  });

  it("reads any well-formed conversation with a non-blank last user message, and refuses the rest", () => {
    const message = fc.record({
      role: fc.constantFrom("user", "assistant", "system"),
      content: fc.string({ maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 15 }), (dialog) => {
        const users = dialog.flatMap((entry, index) => (entry.role === "user" ? [index] : []));
        const last = users.at(-1);
        if (last === undefined || dialog[last]!.content.trim() === "") {
          expect(() => readDialog(dialog as never)).toThrow(PlankitError);
          return;
        }
        const { query, history } = readDialog(dialog as never);
        expect(query).toBe(dialog[last]!.content);
        expect(history.split("\n").filter((line) => line !== "").length).toBeLessThanOrEqual(Math.min(10, last));
      }),
    );
  });
});
