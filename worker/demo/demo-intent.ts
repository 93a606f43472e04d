/**
 * What the offline demo model understood a request to ask.
 *
 * @module
 */
import type { DemoQuantity } from "./find-quantities.ts";

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
  /** Whether years are leap years. */
  | { kind: "leap-years"; years: number[] }
  /** Time per distance unit `per`: "5 km in 27 minutes, pace per mile". */
  | { kind: "pace"; distance: DemoQuantity; time: DemoQuantity[]; per: string }
  /** Distance per time, in the speed unit `unit`: "150 miles in 2.5 hours, average speed in km/h". */
  | { kind: "speed"; distance: DemoQuantity; time: DemoQuantity[]; unit: string }
  /** How long a distance takes at a speed: "300 km at 80 km/h". */
  | { kind: "travel-time"; distance: DemoQuantity; speed: DemoQuantity }
  /** Measurements written in the request (each maybe in several units, like 5'11"), added or subtracted in unit `to`. */
  | { kind: "measures"; groups: DemoQuantity[][]; combination: "sum" | "difference"; to: string }
  /** Several requests in one: each part it can do, and the words of those it cannot. */
  | { kind: "several"; parts: DemoPart[]; notDone: DemoNotDone[] }
  /** Another request's answer, saved as a note: "look up … and save it as a note". */
  | { kind: "save-answer"; of: Exclude<DemoIntent, { kind: "decline" | "note" | "save-answer" }>; title: string }
  | { kind: "decline"; reason: "greeting" | "not-understood" | "note-without-text" }
  /** A number written in a form the rules would read only in part ("1e309", "1 000"): `words` as written. */
  | { kind: "decline"; reason: "unread-number"; words: string };

/**
 * A part of a request the model does not do: its words, and why — it has no
 * rule for them, they ask for a year the knowledge base's figure is not of,
 * or they give a figure to compare a fact with.
 */
export interface DemoNotDone {
  words: string;
  reason: "no-rule" | "other-year" | "given-figure" | "unread-number";
}

/** One part of a request of several parts: anything the model can do on its own. */
export type DemoPart = Exclude<DemoIntent, { kind: "decline" | "several" | "save-answer" }>;
