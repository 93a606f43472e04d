/**
 * The travel dates a message gives.
 *
 * @module
 */

/** Travel dates: the first day and, when given, the last. */
export interface TravelDates {
  from: string;
  to?: string;
}

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const month = `(sept|${months.map((name) => `${name.slice(0, 3)}(?:${name.slice(3)})?`).join("|")})\\.?`;

/** ISO dates, "May 1[, 2026]" and "1[st] [of] May [2026]", in the order they appear. */
const datePattern = new RegExp(
  `\\b(\\d{4}-\\d{2}-\\d{2})\\b|\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b|\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${month}(?:,?\\s+(\\d{4}))?\\b`,
  "giu",
);

/**
 * Writes a month-name date the same way whichever order it came in.
 *
 * @param name - the month as written.
 * @param day - the day.
 * @param year - the year, if given.
 * @returns e.g. `"May 1, 2026"` or `"May 1"`.
 */
function spell(name: string, day: string, year: string | undefined): string {
  const index = months.findIndex((full) => full.startsWith(name.toLowerCase().slice(0, 3)));
  const full = months[index] ?? name;
  const title = `${full.charAt(0).toUpperCase()}${full.slice(1)}`;
  return `${title} ${Number(day)}${year === undefined ? "" : `, ${year}`}`;
}

/**
 * Finds the travel dates in a message: ISO dates (`2026-05-01`) and dates
 * with a month name (`May 1`, `Sept 4th, 2026`, `1st of May`). The
 * first date is the start; a second one, the end.
 *
 * @param message - the traveller's message.
 * @returns the dates, or `undefined` when the message gives none.
 * @example
 * ```ts
 * findTravelDates("from 2026-05-01 to 2026-05-08"); // { from: "2026-05-01", to: "2026-05-08" }
 * findTravelDates("May 3 to 10 May");               // { from: "May 3", to: "May 10" }
 * ```
 */
export function findTravelDates(message: string): TravelDates | undefined {
  const found: string[] = [];
  for (const match of message.matchAll(datePattern)) {
    if (match[1] !== undefined) found.push(match[1]);
    else if (match[2] !== undefined && match[3] !== undefined) found.push(spell(match[2], match[3], match[4]));
    else if (match[5] !== undefined && match[6] !== undefined) found.push(spell(match[6], match[5], match[7]));
  }
  const [from, to] = found;
  if (from === undefined) return undefined;
  return to === undefined || to === from ? { from } : { from, to };
}
