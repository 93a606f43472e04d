/**
 * The demo clock tool.
 *
 * @module
 */
import { PlankitError, type ToolDefinition } from "../../src/index.ts";

/** Options of {@link createClockTool}. */
export interface ClockToolOptions {
  /**
   * The current time in milliseconds since the epoch; inject a fixed clock in tests.
   *
   * @defaultValue `Date.now`
   */
  now?: () => number;
}

/**
 * Creates the `current_time` tool: the current date and time, in UTC or in
 * an IANA time zone (`Asia/Tokyo`), as ISO text, epoch milliseconds and a
 * readable local time. Read-only, but not idempotent: the answer changes.
 *
 * @param options - the clock.
 * @returns the tool definition.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry().register(createClockTool({ now: () => Date.UTC(2026, 0, 1) }));
 * await registry.call("current_time", { timeZone: "Asia/Tokyo" }); // { local: "Thursday, January 1, 2026 at 09:00", … }
 * ```
 */
export function createClockTool(options: ClockToolOptions = {}): ToolDefinition {
  const now = options.now ?? Date.now;
  return {
    name: "current_time",
    title: "Clock",
    description: "The current date and time, in UTC or in a time zone such as Asia/Tokyo or Europe/Paris.",
    inputSchema: {
      type: "object",
      properties: {
        timeZone: {
          type: "string",
          minLength: 1,
          maxLength: 64,
          description: "An IANA time zone, e.g. Europe/Paris (default UTC)",
        },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        iso: { type: "string" },
        epochMs: { type: "number" },
        timeZone: { type: "string" },
        local: { type: "string" },
        offset: { type: "string" },
      },
      required: ["iso", "epochMs", "timeZone", "local", "offset"],
    },
    annotations: {
      title: "Clock",
      readOnlyHint: true,
      idempotentHint: false,
      destructiveHint: false,
      openWorldHint: false,
    },
    execute: ({ timeZone }) => {
      const zone = typeof timeZone === "string" ? timeZone : "UTC";
      const epochMs = now();
      const date = new Date(epochMs);
      let local: string;
      let offset: string;
      try {
        local = new Intl.DateTimeFormat("en-US", {
          timeZone: zone,
          dateStyle: "full",
          timeStyle: "short",
          hourCycle: "h23",
        }).format(date);
        const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(
          date,
        );
        // ICU builds differ on UTC itself: "GMT" or "GMT+00:00".
        offset = parts.find((part) => part.type === "timeZoneName")?.value ?? "GMT";
      } catch (error) {
        throw new PlankitError(
          "invalid-argument",
          `Unknown time zone "${zone}"; use an IANA name such as Europe/Paris`,
          { cause: error },
        );
      }
      return {
        iso: date.toISOString(),
        epochMs,
        timeZone: zone,
        local,
        offset: offset === "GMT" ? "UTC+00:00" : offset.replace("GMT", "UTC"),
      };
    },
  };
}
