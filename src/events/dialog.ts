/**
 * Conversation messages as the runtime takes them.
 *
 * @module
 */

/** One message of a conversation (an item of a `dialog`). */
export interface DialogMessage {
  role: "user" | "assistant" | "system";
  content: string;
}

/**
 * A conversation, or just the user's request as a string. The runtime plans
 * for the last user message and shows the planner up to ten turns before it.
 *
 * @example
 * ```ts
 * const dialog: Dialog = [{ role: "user", content: "帮我查 arXiv 上的 LLM agents 综述" }];
 * ```
 */
export type Dialog = string | readonly DialogMessage[];
