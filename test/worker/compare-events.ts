import type { RuntimeEvent } from "../../src/index.ts";

/** The events without what depends on timing or the run id. */
export function comparable(events: readonly RuntimeEvent[]): unknown[] {
  return events.map(
    (event) =>
      JSON.parse(
        JSON.stringify(event, (key, value: unknown) =>
          key === "t" || key === "runId" || key === "durationMs" ? undefined : value,
        ),
      ) as unknown,
  );
}

/**
 * The comparable events of each step, and of the run, each in order: the
 * same run up to how parallel steps interleave (a step started early may end
 * before or after the next step is planned; a replay gets stored outcomes at
 * once).
 */
export function perStep(events: readonly RuntimeEvent[]): Record<string, unknown[]> {
  const grouped: Record<string, unknown[]> = {};
  comparable(events).forEach((event, index) => {
    const source = events[index] as RuntimeEvent;
    const key = "stepId" in source ? source.stepId : "step" in source ? source.step.id : "run";
    (grouped[key] ??= []).push(event);
  });
  return grouped;
}
