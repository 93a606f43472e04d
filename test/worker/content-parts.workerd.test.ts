import { SELF } from "cloudflare:test";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { client, origin } from "./worker-requests.workerd.ts";

describe("content the runs cannot read is refused, not dropped without a word", () => {
  it("an image or audio part of a Chat Completions message is a 400 naming the part and its type", async () => {
    const cases: [OpenAI.ChatCompletionMessageParam[], string, string][] = [
      [
        [
          {
            role: "user",
            content: [
              { type: "text", text: "What is in this picture?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            ],
          },
        ],
        "messages[0].content[1].type",
        '"image_url"',
      ],
      [
        [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
          { role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] },
        ],
        "messages[3].content[0].type",
        '"input_audio"',
      ],
    ];
    for (const [messages, param, type] of cases) {
      const error = await client.chat.completions
        .create({ model: "plankit", messages })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, type: "invalid_request_error", code: "unsupported_content", param });
      expect((error as Error).message).toContain(`is of type ${type}`);
      expect((error as Error).message).toContain("text only");
    }
  });

  it("a file part of a user's UI message on /v1/chat is a 400 naming the part", async () => {
    const response = await SELF.fetch(`${origin}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        messages: [
          {
            id: "m1",
            role: "user",
            parts: [
              { type: "text", text: "What is in this picture?" },
              { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
            ],
          },
        ],
      }),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; detail: string; errors: { pointer: string }[] };
    expect(problem.code).toBe("unsupported-content");
    expect(problem.errors[0]?.pointer).toBe("#/messages/0/parts/1/type");
    expect(problem.detail).toContain('is of type "file"');
  });

  it("text parts, an assistant's refusal and the assistant's own tool parts still pass", async () => {
    const completion = await client.chat.completions.create({
      model: "plankit",
      messages: [
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "assistant", content: [{ type: "refusal", refusal: "no" }] },
        { role: "user", content: [{ type: "text", text: "What is 2+2?" }] },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain("4");
    const chat = await SELF.fetch(`${origin}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        messages: [
          { id: "m1", role: "user", parts: [{ type: "text", text: "What is 2+2?" }] },
          {
            id: "m2",
            role: "assistant",
            parts: [
              { type: "step-start" },
              {
                type: "dynamic-tool",
                toolName: "calculator",
                toolCallId: "s1",
                state: "output-available",
                input: {},
                output: 4,
              },
              { type: "text", text: "4" },
            ],
          },
          { id: "m3", role: "user", parts: [{ type: "text", text: "What is 3+3?" }] },
        ],
      }),
    });
    expect(chat.status).toBe(200);
    expect(await chat.text()).toContain("6");
  });
});
