/**
 * The body of `POST /v1/chat/completions`: an OpenAI Chat Completions request.
 *
 * @module
 */
import * as v from "valibot";
import { createRunOptionEntries } from "./request-body-schema.ts";

const { profile, maxSteps } = createRunOptionEntries([]);

const ChatMessageSchema = v.looseObject(
  {
    role: v.picklist(
      ["system", "developer", "user", "assistant", "tool", "function"],
      'each message role must be "system", "developer", "user", "assistant" or "tool"',
    ),
    content: v.nullish(
      v.union(
        [v.string(), v.array(v.looseObject({ type: v.string() }))],
        "each message content must be a string or a list of content parts",
      ),
    ),
  },
  "each message must be an object with role and content",
);

/**
 * Builds the schema of a Chat Completions request as plankit reads it:
 * `messages` (1–100), `model`, `stream` and `stream_options.include_usage`,
 * plus the optional `maxSteps` and `profile` of `/v1/run`. `tools`,
 * `tool_choice`, `functions` and `function_call` are read as they come, for
 * the route to refuse (see `findClientTools`). Other members OpenAI
 * clients send (`temperature`, `top_p`, `user`, …) are accepted and
 * ignored: the planner sets its own.
 *
 * @returns the valibot schema.
 *
 * @example
 * ```ts
 * v.safeParse(createChatCompletionsBodySchema(), { model: "plankit", messages: [{ role: "user", content: "21*2+5?" }], stream: true });
 * ```
 */
export function createChatCompletionsBodySchema() {
  return v.looseObject(
    {
      model: v.optional(v.string("model must be a string")),
      messages: v.pipe(
        v.array(ChatMessageSchema, "messages must be an array of chat messages"),
        v.minLength(1, "messages must not be empty"),
        v.maxLength(100, "messages may hold at most 100 messages"),
      ),
      stream: v.optional(v.nullable(v.boolean("stream must be a boolean"))),
      stream_options: v.optional(
        v.nullable(
          v.looseObject(
            { include_usage: v.optional(v.nullable(v.boolean("stream_options.include_usage must be a boolean"))) },
            "stream_options must be an object",
          ),
        ),
      ),
      tools: v.optional(v.unknown()),
      tool_choice: v.optional(v.unknown()),
      functions: v.optional(v.unknown()),
      function_call: v.optional(v.unknown()),
      profile,
      maxSteps,
    },
    (issue) =>
      issue.path?.[0]?.key === undefined
        ? "the body must be a JSON object"
        : `${String(issue.path[0].key)} is required`,
  );
}

/** A validated Chat Completions body. */
type ChatCompletionsBody = v.InferOutput<ReturnType<typeof createChatCompletionsBodySchema>>;
