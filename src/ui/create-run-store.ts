/**
 * A framework-free store of a run's state, fed by its events.
 *
 * @module
 */

import { PlankitError } from "../errors/plankit-error.ts";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import { createRunState } from "../events/create-run-state.ts";
import type { RunState } from "../events/run-state.ts";
import type { RuntimeEvent } from "../events/runtime-event.ts";
import { checkRunStoreOptions } from "./check-run-store-options.ts";
import { createRunControls } from "./create-run-controls.ts";
import { createSnapshotBuilder } from "./create-snapshot-builder.ts";
import { followRunEvents } from "./follow-run-events.ts";
import { readEventIterable } from "./read-event-iterable.ts";
import { readEventResponse } from "./read-event-response.ts";
import type { RunEventFormat } from "./read-run-events.ts";

export type { ApprovalDecision, RunState };

/** The parts of a runtime's `RunHandle` a store uses. */
export interface RunHandleLike extends AsyncIterable<RuntimeEvent> {
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void;
  abort(reason?: string): void;
}

/**
 * What a store reads:
 *
 * - a `RunHandle` of `AgentRuntime.run` (approve and stop go to it);
 * - any `AsyncIterable` of run events (a stored log, a custom transport);
 * - a `Response` or `ReadableStream` of SSE or JSONL;
 * - the URL of a session or durable run's event stream
 *   (`…/v1/runs/:id/events`): read with `fetch`, resumed with
 *   `Last-Event-ID` after a dropped connection; approve and stop post to
 *   `…/approvals` and `…/cancel` beside it.
 */
export type RunSource =
  | RunHandleLike
  | AsyncIterable<RuntimeEvent>
  | Response
  | ReadableStream<Uint8Array | string>
  | string
  | URL;

/** Where the store's reading stands. */
export interface RunConnection {
  /**
   * `connecting`, `open` and `reconnecting` (a URL's stream only),
   * `reading` (any other source), `done` once the source ended, `failed`
   * when reading failed, `closed` after `close()`.
   */
  status: "connecting" | "open" | "reconnecting" | "reading" | "done" | "failed" | "closed";
  /** What failed, for `failed`. */
  error?: Error;
}

/** Options of {@link createRunStore}. */
export interface RunStoreOptions {
  /** A bearer token for a URL source and its approvals and cancel requests. */
  token?: string;
  /** The `fetch` to use for a URL source. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /** How a `Response` or `ReadableStream` is written; `auto` goes by the content type, else the first character. @defaultValue `"auto"` */
  format?: RunEventFormat;
  /** Sends decisions somewhere else than the source's own target (or where the source has none). */
  onApprove?: (decisions: readonly ApprovalDecision[]) => void | Promise<void>;
  /** Stops the run somewhere else than the source's own target (or where the source has none). */
  onStop?: () => void | Promise<void>;
  /** Begin reading at the first `subscribe` (or `start()`) instead of at once: what `useRun` uses. @defaultValue `false` */
  lazy?: boolean;
  /** The first wait before reconnecting a URL source, in ms. @defaultValue `1000` */
  retryMs?: number;
  /**
   * Reconnects a URL source tries after failed connections in a row: the failure after them fails
   * it (`maxRetries + 1` failed connections).
   *
   * @defaultValue `5`
   */
  maxRetries?: number;
  /** Stops reading (not the run) when it fires. */
  signal?: AbortSignal;
  /** Waits between reconnects; for tests. @defaultValue a `setTimeout` that the signal cancels */
  delay?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * A run's state for a view: `subscribe` / `getSnapshot` is the contract of
 * React's `useSyncExternalStore` (and of any other framework's stores).
 */
export interface RunStore {
  /**
   * Calls `listener` after the state or the connection changed (at most once per microtask).
   *
   * @param listener - called with no arguments.
   * @returns a function that unsubscribes.
   */
  subscribe(listener: () => void): () => void;
  /**
   * The run's state: the same object until an event changes it, and equal to `replay(events)`.
   *
   * @returns the state; treat it as read-only.
   */
  getSnapshot(): RunState;
  /**
   * Where reading stands: the same object until it changes.
   *
   * @returns the connection.
   */
  getConnection(): RunConnection;
  /** Every event applied so far. */
  readonly events: readonly RuntimeEvent[];
  /** Resolves with the state when the source ended or failed (see `getConnection()`); never rejects. */
  readonly done: Promise<RunState>;
  /** Whether `approve` and `stop` have somewhere to go. */
  readonly canApprove: boolean;
  readonly canStop: boolean;
  /**
   * Decides steps that wait for approval: sends them to the run handle, to
   * `POST …/approvals`, or to `options.onApprove`.
   *
   * @param decisions - one decision or several (applied all or nothing).
   * @returns when they were accepted.
   * @throws PlankitError `invalid-approval` naming what the target refused; `invalid-options` when there is no target.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): Promise<void>;
  /**
   * Stops the run: aborts the run handle, posts `…/cancel`, or calls `options.onStop`.
   *
   * @returns when the stop was accepted.
   * @throws PlankitError `invalid-options` naming what failed or that there is nowhere to send it.
   */
  stop(): Promise<void>;
  /** Begins reading a `lazy` store (does nothing otherwise). */
  start(): void;
  /** Stops reading, keeping the state; does not stop the run. */
  close(): void;
}

/**
 * Whether a value is a `RunHandle`-like object.
 *
 * @param value - the source.
 * @returns `true` when it can approve and abort.
 */
function isRunHandle(value: unknown): value is RunHandleLike {
  const candidate = value as Partial<RunHandleLike> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.approve === "function" &&
    typeof candidate.abort === "function" &&
    Symbol.asyncIterator in candidate
  );
}

/**
 * The URL of a source given as one, after checking the source is of a kind the store reads.
 *
 * @param source - the store's source.
 * @returns the URL, or undefined for a source of another kind.
 * @throws PlankitError `invalid-options` for a URL that does not parse or a source of no known kind.
 */
function sourceUrl(source: RunSource): URL | undefined {
  if (typeof source === "string" || source instanceof URL) {
    try {
      return new URL(source, (globalThis as { location?: { href: string } }).location?.href);
    } catch (error) {
      throw new PlankitError(
        "invalid-options",
        `createRunStore: the source ${JSON.stringify(String(source))} is not a URL`,
        { cause: error },
      );
    }
  }
  if (
    !(typeof Response !== "undefined" && source instanceof Response) &&
    !(typeof ReadableStream !== "undefined" && source instanceof ReadableStream) &&
    !(typeof source === "object" && source !== null && Symbol.asyncIterator in source)
  ) {
    throw new PlankitError(
      "invalid-options",
      `createRunStore: the source must be a RunHandle, an AsyncIterable of events, a Response, a ReadableStream or a URL, not ${source === null ? "null" : typeof source}`,
    );
  }
  return undefined;
}

/**
 * A delay the signal cancels.
 *
 * @param ms - how long.
 * @param signal - cancels it.
 * @returns when the time passed.
 */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Creates a store of a run's state from its events, read from a run handle,
 * an async iterable, an SSE or JSONL response or stream, or a run's event
 * stream URL. The state comes from the same reducer as `replay` and the live
 * run (`createRunState` of `plankit/events`). Reading failures do not throw:
 * they show in `getConnection()`.
 *
 * @param source - where the events come from.
 * @param options - token, fetch, format, approval and stop targets, reconnect policy.
 * @returns the store.
 * @throws PlankitError `invalid-options` for a source of another kind, a URL that does not parse, or an unknown option or an option of the wrong kind (naming it and its value).
 *
 * @example
 * ```ts
 * const store = createRunStore(runtime.run("weather in Paris"));
 * store.subscribe(() => console.log(store.getSnapshot().steps.length));
 * await store.done;
 * ```
 */
export function createRunStore(source: RunSource, options: RunStoreOptions = {}): RunStore {
  checkRunStoreOptions(options);
  const reducer = createRunState();
  const snapshots = createSnapshotBuilder(reducer.state);
  const events: RuntimeEvent[] = [];
  const listeners = new Set<() => void>();
  const controller = new AbortController();
  if (options.signal?.aborted === true) controller.abort(options.signal.reason);
  else options.signal?.addEventListener("abort", () => controller.abort(options.signal?.reason), { once: true });
  let connection: RunConnection = { status: "reading" };
  let scheduled = false;
  let started = false;
  let resolveDone: (state: RunState) => void = () => {};
  const done = new Promise<RunState>((resolve) => {
    resolveDone = resolve;
  });

  const notify = (): void => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      for (const listener of [...listeners]) listener();
    });
  };
  const setConnection = (next: RunConnection): void => {
    if (next.status === connection.status && next.error === connection.error) return;
    connection = next;
    notify();
  };
  const apply = (event: RuntimeEvent): void => {
    events.push(event);
    reducer.apply(event);
    snapshots.touch(event);
    notify();
  };

  const url = sourceUrl(source);
  const handle = isRunHandle(source) ? source : undefined;
  // The run's routes sit beside its event stream: `…/v1/runs/:id/events` → `…/v1/runs/:id` (without the stream's query).
  const runUrl =
    url !== undefined && /\/events\/?$/u.test(url.pathname)
      ? new URL(url.pathname.replace(/\/events\/?$/u, ""), url).href
      : undefined;
  if (url !== undefined) connection = { status: "connecting" };
  const fetcher = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  const read = async (): Promise<void> => {
    if (url !== undefined) {
      await followRunEvents(url.href, {
        fetch: fetcher,
        token: options.token,
        signal: controller.signal,
        retryMs: options.retryMs ?? 1000,
        maxRetries: options.maxRetries ?? 5,
        delay: options.delay ?? wait,
        onEvent: apply,
        onStatus: (status) => setConnection({ status }),
      });
    } else if (source instanceof Response || source instanceof ReadableStream) {
      await readEventResponse(source, options.format ?? "auto", apply, controller.signal);
    } else {
      await readEventIterable(source as AsyncIterable<RuntimeEvent>, apply, controller.signal, handle !== undefined);
    }
  };

  const start = (): void => {
    if (started) return;
    started = true;
    read()
      .then(
        () => setConnection({ status: controller.signal.aborted ? "closed" : "done" }),
        (error: unknown) =>
          setConnection(
            controller.signal.aborted
              ? { status: "closed" }
              : { status: "failed", error: error instanceof Error ? error : new Error(String(error)) },
          ),
      )
      .finally(() => resolveDone(snapshots.build()));
  };

  const store: RunStore = {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshots.build(),
    getConnection: () => connection,
    events,
    done,
    ...createRunControls(options, handle, runUrl, fetcher),
    start,
    close() {
      if (!started) {
        started = true;
        setConnection({ status: "closed" });
        resolveDone(snapshots.build());
      }
      controller.abort(new PlankitError("aborted", "The run store was closed"));
    },
  };
  if (options.lazy !== true) start();
  return store;
}
