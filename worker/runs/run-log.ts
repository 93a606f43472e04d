/**
 * A session's runs and their event logs, in the session object's SQLite storage.
 *
 * @module
 */
import type { RuntimeEvent } from "../../src/index.ts";
import type { LoggedEvent } from "./logged-event.ts";

/** A run as its row holds it. */
export interface RunRow extends Record<string, SqlStorageValue> {
  id: string;
  mode: string;
  query: string;
  created_at: number;
  last_seq: number;
  ended: number;
  replayed: number;
}

/** A logged event as its row holds it. */
export interface EventRow extends Record<string, SqlStorageValue> {
  seq: number;
  type: string;
  data: string;
}

/**
 * Where a `reply-delta` keyed by its offset starts in the reply.
 *
 * @param item - a keyed event.
 * @returns the offset, or `undefined` for any other event.
 */
function replyOffset(item: LoggedEvent): number | undefined {
  if (item.event.type !== "reply-delta" || typeof item.event["delta"] !== "string") return undefined;
  const match = /^reply-delta@(\d+)$/u.exec(item.key);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The `runs` and `events` tables of one session: each run's row and its
 * append-only log, keyed by run id and sequence number (the event's SSE id).
 * Appends are idempotent: each event carries a key, the log keeps the first
 * event of each key, and after `run-end` it takes nothing more. The tables
 * are created by the first run, so asking an empty session about a run
 * stores nothing.
 *
 * @example
 * ```ts
 * const log = new RunLog(ctx.storage);
 * log.start("run_1", "durable", "weather in Paris?");
 * log.append("run_1", [{ key: "model", event: { type: "model", name: "scripted", provider: "test" } }]);
 * ```
 */
export class RunLog {
  readonly #storage: DurableObjectStorage;
  readonly #sql: SqlStorage;
  #ready: boolean;

  /**
   * @param storage - the session object's storage.
   */
  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#sql = storage.sql;
    this.#ready =
      this.#sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'runs'").toArray().length > 0;
  }

  /** Whether any run was ever recorded. */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Records a run (once: a second call changes nothing).
   *
   * @param runId - the run.
   * @param mode - `session` or `durable`.
   * @param query - the request.
   */
  start(runId: string, mode: string, query: string): void {
    this.#prepare();
    this.#sql.exec(
      "INSERT OR IGNORE INTO runs (id, mode, query, created_at) VALUES (?, ?, ?, ?)",
      runId,
      mode,
      query,
      Date.now(),
    );
  }

  /**
   * The run's row.
   *
   * @param runId - the run.
   * @returns the row, or `undefined`.
   */
  row(runId: string): RunRow | undefined {
    if (!this.#ready) return undefined;
    return this.#sql.exec<RunRow>("SELECT * FROM runs WHERE id = ?", runId).toArray()[0];
  }

  /**
   * The runs that have not ended.
   *
   * @returns their rows.
   */
  openRuns(): RunRow[] {
    if (!this.#ready) return [];
    return this.#sql.exec<RunRow>("SELECT * FROM runs WHERE ended = 0").toArray();
  }

  /**
   * The run's logged runtime events (every event but `model`).
   *
   * @param runId - the run.
   * @returns them, in order.
   */
  runtimeEvents(runId: string): RuntimeEvent[] {
    return this.#sql
      .exec<EventRow>("SELECT seq, type, data FROM events WHERE run_id = ? AND type != 'model' ORDER BY seq", runId)
      .toArray()
      .map((row) => JSON.parse(row.data) as RuntimeEvent);
  }

  /**
   * The run's logged events after a sequence number, at most `limit`.
   *
   * @param runId - the run.
   * @param after - the last sequence number already read.
   * @param limit - the most rows.
   * @returns the rows, in order.
   */
  eventsAfter(runId: string, after: number, limit: number): EventRow[] {
    return this.#sql
      .exec<EventRow>(
        "SELECT seq, type, data FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        runId,
        after,
        limit,
      )
      .toArray();
  }

  /**
   * Appends keyed events in one transaction: an event whose key is logged,
   * or any after `run-end`, is ignored (and counted as replayed). A
   * `reply-delta` keyed `reply-delta@<offset>` (where its text starts in
   * the reply) keeps only the text past what the log's deltas already
   * wrote: a replay that asks the model for an answer cut off by a restart
   * adds what the first execution had not logged, however the model split
   * its text this time.
   *
   * @param runId - the run.
   * @param items - the events.
   * @returns how many were new, and whether the log has ended.
   * @throws Error when the session has no such run.
   */
  append(runId: string, items: readonly LoggedEvent[]): { appended: number; ended: boolean } {
    const row = this.row(runId);
    if (row === undefined) throw new Error(`No run ${runId} in this session`);
    let seq = row.last_seq;
    let ended = row.ended === 1;
    let ignored = 0;
    let written: number | undefined;
    this.#storage.transactionSync(() => {
      for (const original of items) {
        let item = original;
        const offset = replyOffset(item);
        if (offset !== undefined && !ended) {
          written ??= this.#replyLength(runId);
          const delta = item.event["delta"] as string;
          if (offset + delta.length <= written) {
            ignored++;
            continue;
          }
          if (offset < written)
            item = { key: `reply-delta@${written}`, event: { ...item.event, delta: delta.slice(written - offset) } };
          written = Math.max(written, offset) + (item.event["delta"] as string).length;
        }
        const known =
          this.#sql.exec("SELECT 1 FROM events WHERE run_id = ? AND key = ?", runId, item.key).toArray().length > 0;
        if (ended || known) {
          ignored++;
          continue;
        }
        seq++;
        this.#sql.exec(
          "INSERT INTO events (run_id, seq, key, type, data) VALUES (?, ?, ?, ?, ?)",
          runId,
          seq,
          item.key,
          item.event.type,
          JSON.stringify(item.event),
        );
        if (item.event.type === "run-end") ended = true;
      }
      this.#sql.exec(
        "UPDATE runs SET last_seq = ?, ended = ?, replayed = replayed + ? WHERE id = ?",
        seq,
        ended ? 1 : 0,
        ignored,
        runId,
      );
    });
    return { appended: seq - row.last_seq, ended };
  }

  /**
   * How much of the reply the run's logged deltas wrote.
   *
   * @param runId - the run.
   * @returns the length of their text.
   */
  #replyLength(runId: string): number {
    let length = 0;
    for (const row of this.#sql
      .exec<{ data: string }>("SELECT data FROM events WHERE run_id = ? AND type = 'reply-delta'", runId)
      .toArray()) {
      const delta = (JSON.parse(row.data) as { delta?: unknown }).delta;
      if (typeof delta === "string") length += delta.length;
    }
    return length;
  }

  /** Creates the tables of runs and events when missing. */
  #prepare(): void {
    if (this.#ready) return;
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS runs (
      id TEXT PRIMARY KEY,
      mode TEXT NOT NULL,
      query TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_seq INTEGER NOT NULL DEFAULT 0,
      ended INTEGER NOT NULL DEFAULT 0,
      replayed INTEGER NOT NULL DEFAULT 0
    )`);
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS events (
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      key TEXT NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      PRIMARY KEY (run_id, seq),
      UNIQUE (run_id, key)
    )`);
    this.#ready = true;
  }
}
