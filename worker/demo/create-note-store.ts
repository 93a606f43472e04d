/**
 * Where the demo's `save_note` tool writes.
 *
 * @module
 */

/** A saved note. */
interface Note {
  id: string;
  title: string;
  text: string;
  /** ISO time of saving. */
  savedAt: string;
}

/** Holds notes; the oldest are dropped beyond the store's limit. */
export interface NoteStore {
  /**
   * Saves a note.
   *
   * @param note - the note.
   */
  save(note: Note): void;
  /**
   * The notes, oldest first.
   *
   * @returns a copy of the list.
   */
  list(): Note[];
}

/**
 * Creates an in-memory note store that keeps the `limit` newest notes.
 *
 * @param limit - the most notes kept.
 * @returns the store.
 * @defaultValue `limit`: `50`
 *
 * @example
 * ```ts
 * const notes = createNoteStore();
 * const registry = createDemoTools({ notes });
 * ```
 */
export function createNoteStore(limit = 50): NoteStore {
  const notes: Note[] = [];
  return {
    save(note) {
      notes.push({ ...note });
      if (notes.length > limit) notes.splice(0, notes.length - limit);
    },
    list() {
      return notes.map((note) => ({ ...note }));
    },
  };
}
