/**
 * `useRun`: a run's state in a React component.
 *
 * @module
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import {
  type ApprovalDecision,
  createRunStore,
  type RunConnection,
  type RunSource,
  type RunState,
  type RunStore,
  type RunStoreOptions,
} from "../ui/create-run-store.ts";

/** What {@link useRun} returns. */
export interface UseRunResult {
  /** The run's state (a new object only when it changed). */
  state: RunState;
  /** Where reading stands. */
  connection: RunConnection;
  /** The store, for `<plankit-run store={store}>` or other components. */
  store: RunStore;
  /** Decides steps that wait for approval (see `RunStore.approve`). */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): Promise<void>;
  /** Stops the run (see `RunStore.stop`). */
  stop(): Promise<void>;
}

/** How many mounted components use each store the hook made. */
const uses = new WeakMap<RunStore, number>();

/**
 * Whether a value is a run store already.
 *
 * @param value - the source.
 * @returns `true` for a store.
 */
function isRunStore(value: unknown): value is RunStore {
  const candidate = value as Partial<RunStore> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.getSnapshot === "function" &&
    typeof candidate.subscribe === "function"
  );
}

/**
 * Follows a run in a component, through `useSyncExternalStore`: give it a
 * store, or anything `createRunStore` reads (a `RunHandle`, events, a
 * response or stream, a run's event-stream URL), and it makes the store
 * once per source (reading starts when the component subscribes) and
 * closes it when the last component using it unmounts. Options are read
 * when the store is made.
 *
 * @param source - a store, or a source for one.
 * @param options - options of the store it makes.
 * @returns the state, connection, store, `approve` and `stop`.
 *
 * @example
 * ```ts
 * const { state, approve } = useRun(`/v1/runs/${runId}/events`);
 * ```
 */
export function useRun(source: RunSource | RunStore, options?: RunStoreOptions): UseRunResult {
  const owned = !isRunStore(source);
  // The options are read once with the source, like the source's own settings.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the options are read with the source only, as documented above.
  const store = useMemo(
    () => (isRunStore(source) ? source : createRunStore(source, { ...options, lazy: true })),
    [source],
  );
  useEffect(() => {
    if (!owned) return undefined;
    uses.set(store, (uses.get(store) ?? 0) + 1);
    return () => {
      uses.set(store, (uses.get(store) ?? 1) - 1);
      // StrictMode unmounts and mounts again at once: close only if nothing came back.
      setTimeout(() => {
        if (uses.get(store) === 0) store.close();
      }, 0);
    };
  }, [store, owned]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const connection = useSyncExternalStore(store.subscribe, store.getConnection, store.getConnection);
  return { state, connection, store, approve: store.approve, stop: store.stop };
}
