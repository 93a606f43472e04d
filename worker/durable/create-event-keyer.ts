/**
 * Idempotency keys for a run's events.
 *
 * @module
 */

/**
 * Creates the function that names each event of one execution of a run:
 * its type, step id, attempt and kind, and how many events with those
 * same fields came before it in this execution. Every execution of the same
 * run (a Workflow replay re-running from cached steps) emits each step's
 * events in the same order, so a logical event gets the same key each
 * time — even when parallel steps interleave differently.
 *
 * @returns the keyer; call it once per event, in order.
 *
 * @example
 * ```ts
 * const keyOf = createEventKeyer();
 * keyOf({ type: "step-start", stepId: "s1", attempt: 1 }); // "step-start:s1:1::1"
 * ```
 */
export function createEventKeyer(): (event: { type: string; [member: string]: unknown }) => string {
  const counts = new Map<string, number>();
  return (event) => {
    const field = (name: string): string => {
      const value = event[name];
      return typeof value === "string" || typeof value === "number" ? String(value) : "";
    };
    const base = `${event.type}:${field("stepId")}:${field("attempt")}:${field("kind")}`;
    const count = (counts.get(base) ?? 0) + 1;
    counts.set(base, count);
    return `${base}:${count}`;
  };
}
