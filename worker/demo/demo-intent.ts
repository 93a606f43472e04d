/**
 * What the offline demo model understood a request to ask.
 *
 * @module
 */

/** How looked-up numbers are combined. */
export type DemoCombination =
  | "sum"
  | "difference"
  | "ratio"
  /** How many of the first subject fit in the second: second ÷ first. */
  | "fit"
  /** People per area of one subject: population ÷ area. */
  | "per-area"
  /** A figure per inhabitant of one subject: figure ÷ population. */
  | "per-capita";

/** One fact to look up: the attribute and the subject, as the knowledge base names them. */
export interface DemoLookup {
  attribute: string;
  subject: string;
  /** The unit the knowledge base gives, when the model knows the subject. */
  unit?: string;
}

/**
 * A request as the offline demo model reads it.
 *
 * @example
 * ```ts
 * const intent: DemoIntent = { kind: "convert", value: 3.5, from: "d", to: "s" };
 * ```
 */
export type DemoIntent =
  | { kind: "arithmetic"; expr: string }
  | { kind: "convert"; value: number; from: string; to: string }
  | { kind: "facts"; lookups: DemoLookup[]; combination?: DemoCombination; targetUnit?: string }
  | { kind: "time"; subjects: string[] }
  | { kind: "note"; title: string; text: string }
  /** Another request's answer, saved as a note: "look up … and save it as a note". */
  | { kind: "save-answer"; of: Exclude<DemoIntent, { kind: "decline" | "note" | "save-answer" }>; title: string }
  | { kind: "decline"; reason: "greeting" | "not-understood" | "note-without-text" };
