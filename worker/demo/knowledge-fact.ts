/**
 * One fact of the demo knowledge base.
 *
 * @module
 */

/** One fact of the demo knowledge base. */
export interface KnowledgeFact {
  /** A stable id, e.g. `"tokyo-population"`. */
  id: string;
  /** What the fact is about, e.g. `"Tokyo"`. */
  subject: string;
  /** Other names of the subject, e.g. `["NYC"]`. */
  aliases: readonly string[];
  /** Which property, e.g. `"population"`, `"height"`, `"time zone"`. */
  attribute: string;
  /** The value: a number (in `unit`) or a text. */
  value: number | string;
  /** The unit of a numeric value (`"people"`, `"m"`, `"km"`, …); empty for text values. */
  unit: string;
  /** The year the value refers to, when it changes over time. */
  year?: number;
  /** The fact as one sentence. */
  text: string;
  /** Where it comes from. */
  source: string;
}
