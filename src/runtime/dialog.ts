/**
 * Conversation messages as the runtime takes them.
 *
 * @module
 */

/** One message of a conversation (seed 004's `dialog` items). */
export interface DialogMessage {
  role: "user" | "assistant" | "system";
  content: string;
}

/** A conversation, or just the user's request as a string. */
export type Dialog = string | readonly DialogMessage[];
