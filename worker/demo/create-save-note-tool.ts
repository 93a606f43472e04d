/**
 * The demo's side-effecting tool.
 *
 * @module
 */
import type { ToolDefinition } from "../../src/index.ts";
import type { NoteStore } from "./create-note-store.ts";

/** Options of {@link createSaveNoteTool}. */
export interface SaveNoteToolOptions {
  /** Where notes go. */
  store: NoteStore;
  /**
   * The current time in milliseconds since the epoch.
   *
   * @defaultValue `Date.now`
   */
  now?: () => number;
}

/**
 * Creates the `save_note` tool: saves a note into a {@link NoteStore}. It
 * changes state and is neither read-only nor idempotent (MCP
 * `destructiveHint: true`), so the runtime's safety policy runs it only once
 * the model has finished the plan and the plan validated.
 *
 * @param options - the store and the clock.
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createSaveNoteTool({ store: createNoteStore() }));
 * await registry.call("save_note", { title: "Tokyo", text: "14 million people" }); // { id: "note-1", … }
 * ```
 */
export function createSaveNoteTool(options: SaveNoteToolOptions): ToolDefinition {
  const now = options.now ?? Date.now;
  let saved = 0;
  return {
    name: "save_note",
    title: "Save a note",
    description:
      "Save a note with a title and a text (this changes state). Use it only when the request asks to save, store, note or remember something.",
    inputSchema: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: 100, description: "A short title" },
        text: { type: "string", minLength: 1, maxLength: 2000, description: "The note's text" },
      },
      required: ["title", "text"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        id: { type: "string" },
        title: { type: "string" },
        chars: { type: "integer" },
        savedAt: { type: "string" },
      },
      required: ["id", "title", "chars", "savedAt"],
    },
    annotations: {
      title: "Save a note",
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: true,
      openWorldHint: false,
    },
    execute: ({ title, text }) => {
      saved++;
      const note = {
        id: `note-${saved}`,
        title: String(title),
        text: String(text),
        savedAt: new Date(now()).toISOString(),
      };
      options.store.save(note);
      return { id: note.id, title: note.title, chars: note.text.length, savedAt: note.savedAt };
    },
  };
}
