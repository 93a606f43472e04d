/**
 * Tokenization for tool retrieval, for English and Chinese alike.
 *
 * @module
 */

const englishStopwords = new Set(
  (
    "a an the of to for in on at by with from into about as and or nor but if then than so is are was were be been being am " +
    "it its this that these those there their them they he she his her i me my mine you your we our us please can could would " +
    "will shall should may might must do does did done what which who whom whose how when where why some any all each every " +
    "also just want wants need needs help tell show give let like via using use"
  ).split(" "),
);

// Single characters that carry no topic on their own (they still count inside bigrams).
const chineseStopCharacters = new Set([
  ..."的了是在我你他她它们把被和与及或一个这那吗呢吧啊请帮给要想能会有也都就还并再然后让对从到为中上下里哪什么怎样些每所其之以于而",
]);

// Words whose final "s" is not a plural (words of three letters or fewer are never stemmed).
const invariableWords = new Set([
  "news",
  "series",
  "species",
  "always",
  "alias",
  "canvas",
  "atlas",
  "bias",
  "lens",
  "physics",
  "mathematics",
  "analytics",
  "statistics",
  "economics",
  "logistics",
  "diagnostics",
  "metrics",
]);

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const asciiOnly = /^[\x00-\x7f]*$/u;
const asciiWordPattern = /[A-Za-z0-9]+/gu;
const innerCapital = /.\p{Lu}/u;
// A CJK run, or a run of other letters and digits (so "用arXiv找" splits into "用", "arXiv", "找").
const wordPattern =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}])+/gu;

/**
 * Porter's measure: the number of vowel–consonant sequences in a word.
 *
 * @param word - a lowercase word.
 * @returns the measure.
 */
function measure(word: string): number {
  // Each run of vowels followed by a run of consonants is one sequence.
  return (word.match(/[aeiou]+[^aeiou]+/gu) ?? []).length;
}

/**
 * A light English stemmer: enough to meet `searches`/`search`,
 * `files`/`file`, `created`/`create`/`creating`, `queries`/`query`,
 * `reminder`/`remind`, `calculator`/`calculate`.
 *
 * @param word - a lowercase word.
 * @returns its stem.
 */
function stemWord(word: string): string {
  if (word.length <= 3 || /\d/u.test(word) || invariableWords.has(word)) return word;
  let stem = word;
  if (stem.endsWith("ies") && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (/(?:ch|sh|x|z|ss)es$/u.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith("s") && !/(?:ss|us|is)$/u.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 6 && stem.endsWith("ation")) stem = stem.slice(0, -3);
  else if (stem.length > 5 && stem.endsWith("ing")) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith("ed") && !stem.endsWith("eed")) stem = stem.slice(0, -2);
  if (/(?:er|or)$/u.test(stem) && measure(stem.slice(0, -2)) > 1) stem = stem.slice(0, -2);
  if (/([^aeioulsz])\1$/u.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith("e") && !stem.endsWith("ee")) stem = stem.slice(0, -1);
  return stem;
}

/**
 * Splits identifiers and text into retrieval terms:
 *
 * - identifiers break at `_ . - /`, spaces and camelCase humps
 *   (`getWeatherForecast`, `HTTPRequest`, `send_email`), keeping a
 *   humped word whole as well (`arXiv` gives `ar`, `xiv` and `arxiv`);
 * - Latin words are lowercased (after NFKC), stop words dropped, and
 *   lightly stemmed; bare numbers are dropped too (they say nothing about
 *   which tool fits) unless `options.keepNumbers` is set;
 * - runs of Chinese (and Japanese, Korean) characters give their character
 *   bigrams plus the single characters that are not function words, so
 *   `查询天气` matches `天气查询` and `天气`.
 *
 * @param text - any text.
 * @param options - `keepNumbers`: keep bare numbers (`"2024"`, `"7"`) as
 *   terms, for matching requests to each other rather than to tools.
 * @returns the terms, in order, with repeats.
 *
 * @example
 * ```ts
 * tokenizeText("sendEmail"); // ["send", "email", "sendemail"]
 * tokenizeText("查询天气"); // ["查询", "询天", "天气", "查", "询", "天", "气"]
 * ```
 */
export function tokenizeText(text: string, options: { keepNumbers?: boolean } = {}): string[] {
  const terms: string[] = [];
  const keepNumbers = options.keepNumbers === true;
  const addWord = (word: string): void => {
    if (/^\d+$/u.test(word)) {
      if (keepNumbers) terms.push(word);
    } else if (word.length > 1 && !englishStopwords.has(word)) terms.push(stemWord(word));
  };
  // Fast paths: most catalog text is ASCII, most words have no capital inside.
  const ascii = asciiOnly.test(text);
  for (const [run] of (ascii ? text : text.normalize("NFKC")).matchAll(ascii ? asciiWordPattern : wordPattern)) {
    if (!ascii && cjk.test(run)) {
      const characters = [...run];
      for (let index = 0; index + 1 < characters.length; index++)
        terms.push(`${characters[index]}${characters[index + 1]}`);
      for (const character of characters) if (!chineseStopCharacters.has(character)) terms.push(character);
      continue;
    }
    if (!innerCapital.test(run)) {
      addWord(run.toLowerCase());
      continue;
    }
    const parts = run
      .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
      .toLowerCase()
      .split(" ");
    for (const part of parts) addWord(part);
    // Keep the whole word too, so that "arXiv" still meets "arxiv".
    if (parts.length > 1) addWord(run.toLowerCase());
  }
  return terms;
}
