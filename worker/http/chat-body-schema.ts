/**
 * The body of `POST /v1/chat`: what the AI SDK's `useChat` sends.
 *
 * @module
 */
import * as v from "valibot";
import { createRunOptionEntries, describeBodyIssue } from "./request-body-schema.ts";

const MessagePartSchema = v.looseObject(
  { type: v.string("each message part needs a string type") },
  "each message part must be an object with a type",
);

const MessageSchema = v.looseObject(
  {
    id: v.optional(v.string("a message id must be a string")),
    role: v.picklist(["user", "assistant", "system"], 'each message role must be "user", "assistant" or "system"'),
    parts: v.pipe(
      v.array(MessagePartSchema, "each message needs a parts list"),
      v.maxLength(200, "a message may have at most 200 parts"),
    ),
  },
  "each message must be an object with role and parts",
);

/**
 * Builds the schema of a `/v1/chat` body: the AI SDK chat transport's
 * `id`, `messages` (1–100 UI messages with `role` and `parts`), `trigger`
 * and `messageId`, plus the optional `profile`, `tools` and `maxSteps` of
 * `/v1/run` (a client passes them as the transport's `body`). Unknown
 * members are refused.
 *
 * @param toolNames - the tools a request may name.
 * @returns the valibot schema.
 *
 * @example
 * ```ts
 * v.safeParse(createChatBodySchema(["calculator"]), { messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "21*2+5?" }] }] });
 * ```
 */
export function createChatBodySchema(toolNames: readonly string[]) {
  return v.strictObject(
    {
      id: v.optional(v.string("id must be a string")),
      messages: v.pipe(
        v.array(MessageSchema, "messages must be an array of UI messages"),
        v.minLength(1, "messages must not be empty"),
        v.maxLength(100, "messages may hold at most 100 messages"),
      ),
      trigger: v.optional(
        v.picklist(
          ["submit-message", "regenerate-message"],
          'trigger must be "submit-message" or "regenerate-message"',
        ),
      ),
      messageId: v.optional(v.string("messageId must be a string")),
      ...createRunOptionEntries(toolNames),
    },
    describeBodyIssue,
  );
}

/** A validated `/v1/chat` body. */
type ChatBody = v.InferOutput<ReturnType<typeof createChatBodySchema>>;
