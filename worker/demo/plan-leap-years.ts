/**
 * The offline demo model's plan for whether years are leap years.
 *
 * @module
 */

/**
 * Adds the `calculator` steps that show whether each year is a leap year
 * (divisible by 4, and not by 100 unless by 400) and writes the reply.
 * The verdict follows from the same remainders the steps compute, and the
 * reply quotes the steps' results for them.
 *
 * @param years - the years.
 * @param add - adds a step and returns its id.
 * @param zh - whether to answer in Chinese.
 * @returns the reply text, with references to the steps.
 *
 * @example
 * ```ts
 * planLeapYears([2028], add, false);
 * // "Yes: 2028 is a leap year: {{s1.expr}} = {{s1.value}} and {{s2.expr}} = {{s2.value}}, …"
 * ```
 */
export function planLeapYears(
  years: readonly number[],
  add: (step: Record<string, unknown>) => string,
  zh: boolean,
): string {
  const remainder = (year: number, by: number): string => {
    const id = add({ type: "tool", name: "calculator", arguments: { expr: `${year} % ${by}` } });
    return `{{${id}.expr}} = {{${id}.value}}`;
  };
  return years
    .map((year) => {
      if (year % 4 !== 0) {
        const by4 = remainder(year, 4);
        return zh
          ? `${year} 年不是闰年：${by4}，不能被 4 整除。`
          : `No: ${year} is not a leap year: ${by4}, so it is not divisible by 4.`;
      }
      if (year % 100 !== 0) {
        const [by4, by100] = [remainder(year, 4), remainder(year, 100)];
        return zh
          ? `${year} 年是闰年：${by4}，${by100}，能被 4 整除且不是整百年。`
          : `Yes: ${year} is a leap year: ${by4} and ${by100}, so it is divisible by 4 and no century year.`;
      }
      const [by100, by400] = [remainder(year, 100), remainder(year, 400)];
      return year % 400 === 0
        ? zh
          ? `${year} 年是闰年：${by100}，${by400}，整百年中能被 400 整除的是闰年。`
          : `Yes: ${year} is a leap year: ${by100} and ${by400}, and a century year divisible by 400 is one.`
        : zh
          ? `${year} 年不是闰年：${by100}，${by400}，整百年须能被 400 整除。`
          : `No: ${year} is not a leap year: ${by100} and ${by400}, and a century year must be divisible by 400.`;
    })
    .join(" ");
}
