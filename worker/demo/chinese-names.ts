/**
 * Chinese names the offline demo model reads: knowledge base subjects and units.
 *
 * @module
 */

/**
 * Chinese names of knowledge base subjects, mapped to the subject as the
 * knowledge base spells it.
 *
 * @example
 * ```ts
 * chineseSubjectNames.get("东京"); // "Tokyo"
 * ```
 */
export const chineseSubjectNames: ReadonlyMap<string, string> = new Map([
  ["东京晴空塔", "Tokyo Skytree"],
  ["晴空塔", "Tokyo Skytree"],
  ["东京", "Tokyo"],
  ["巴黎", "Paris"],
  ["伦敦", "London"],
  ["纽约", "New York City"],
  ["柏林", "Berlin"],
  ["北京", "Beijing"],
  ["上海", "Shanghai"],
  ["孟买", "Mumbai"],
  ["圣保罗", "São Paulo"],
  ["悉尼", "Sydney"],
  ["多伦多", "Toronto"],
  ["墨西哥城", "Mexico City"],
  ["日本", "Japan"],
  ["法国", "France"],
  ["埃菲尔铁塔", "Eiffel Tower"],
  ["哈利法塔", "Burj Khalifa"],
  ["自由女神像", "Statue of Liberty"],
  ["大本钟", "Elizabeth Tower"],
  ["珠穆朗玛峰", "Mount Everest"],
  ["珠峰", "Mount Everest"],
  ["富士山", "Mount Fuji"],
  ["月球", "Moon"],
  ["月亮", "Moon"],
  ["太阳", "Sun"],
  ["光速", "Light"],
  ["地球", "Earth"],
  ["马拉松", "Marathon"],
  ["尼罗河", "Nile"],
  ["亚马逊河", "Amazon River"],
  ["长城", "Great Wall of China"],
]);

/**
 * Chinese unit names, mapped to the unit symbols of `convert_units`.
 *
 * @example
 * ```ts
 * chineseUnitNames.get("公里"); // "km"
 * ```
 */
export const chineseUnitNames: ReadonlyMap<string, string> = new Map([
  ["平方公里", "km²"],
  ["平方千米", "km²"],
  ["平方米", "m²"],
  ["公顷", "ha"],
  ["英亩", "acre"],
  ["公里", "km"],
  ["千米", "km"],
  ["英里", "mi"],
  ["英尺", "ft"],
  ["英寸", "in"],
  ["厘米", "cm"],
  ["毫米", "mm"],
  ["米", "m"],
  ["公斤", "kg"],
  ["千克", "kg"],
  ["克", "g"],
  ["磅", "lb"],
  ["盎司", "oz"],
  ["吨", "t"],
  ["摄氏度", "°C"],
  ["华氏度", "°F"],
  ["毫升", "ml"],
  ["升", "l"],
  ["加仑", "gal"],
  ["秒钟", "s"],
  ["秒", "s"],
  ["分钟", "min"],
  ["小时", "h"],
  ["天", "d"],
  ["星期", "wk"],
  ["周", "wk"],
  ["年", "yr"],
]);
