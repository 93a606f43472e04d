/**
 * A signal of its own that follows a caller's signal.
 *
 * @module
 */

/** A linked signal and the way to let it go. */
export interface LinkedSignal {
  /** Fires when the caller's signal fires, with its reason, or when released early. */
  readonly signal: AbortSignal;
  /**
   * Stops following the caller's signal; fires the linked signal too unless the work completed
   * (leaving early — the consumer stopped, or an error — stops what listens to it).
   *
   * @param completed - whether the work ran to its end.
   */
  release(completed: boolean): void;
}

/**
 * Creates a signal that fires when `outer` fires (at once when it already has)
 * and that its owner can fire when it leaves early.
 *
 * @param outer - the caller's signal, if any.
 * @returns the linked signal.
 *
 * @example
 * ```ts
 * const link = linkSignal(request.signal);
 * try { await model.stream({ ...request, signal: link.signal }); done = true; } finally { link.release(done); }
 * ```
 */
export function linkSignal(outer: AbortSignal | undefined): LinkedSignal {
  const controller = new AbortController();
  const forward = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    release(completed) {
      outer?.removeEventListener("abort", forward);
      if (!completed) controller.abort();
    },
  };
}
