import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { client, post } from "./worker-requests.workerd.ts";

/** A request whose answer the run would give again if it took the earlier message for the new one. */
const earlier = "What is 3+3?";

describe("a conversation that does not end with a user's text is refused, not answered from an earlier message", () => {
  it("POST /v1/chat/completions names the last message, its role and index, in OpenAI's shape", async () => {
    const cases: [OpenAI.ChatCompletionMessageParam[], RegExp][] = [
      [
        [
          { role: "user", content: earlier },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: "c1", content: "ok" },
        ],
        /messages\[2\] has role "tool"/u,
      ],
      [
        [
          { role: "user", content: earlier },
          { role: "user", content: "   " },
        ],
        /messages\[1\] is the user's but has no text/u,
      ],
      [
        [
          { role: "user", content: earlier },
          { role: "user", content: [] },
        ],
        /messages\[1\] is the user's but has no text/u,
      ],
    ];
    for (const [messages, detail] of cases) {
      const error = await client.chat.completions
        .create({ model: "plankit", messages })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, type: "invalid_request_error", code: "invalid_body" });
      expect((error as Error).message).toContain("the last message must be a user message with text");
      expect((error as Error).message).toMatch(detail);
    }
  });

  it("POST /v1/chat names the last UI message the same way", async () => {
    const response = await post("/v1/chat", {
      messages: [
        { id: "m1", role: "user", parts: [{ type: "text", text: earlier }] },
        {
          id: "m2",
          role: "user",
          parts: [],
        },
      ],
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe("invalid-body");
    expect(problem.detail).toContain("the last message must be a user message with text");
    expect(problem.detail).toMatch(/messages\[1\] is the user's but has no text/u);
  });

  it("still answers a conversation whose last message is the user's text", async () => {
    const completion = await client.chat.completions.create({
      model: "plankit",
      messages: [
        { role: "user", content: "What is 2+2?" },
        { role: "assistant", content: "2 + 2 = 4." },
        { role: "user", content: [{ type: "text", text: earlier }] },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain("6");
  });
});
