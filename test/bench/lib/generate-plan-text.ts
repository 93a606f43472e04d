import { createRandom } from "../../fixtures/create-random.ts";

const tools = [
  "arxiv_search",
  "web_search",
  "calendar_create_event",
  "email_send",
  "weather_forecast",
  "calculator",
  "crm_update_contact",
  "translate_text",
  "file_read",
  "sql_query",
];
const phrases = [
  "LLM agents survey",
  "quarterly revenue report",
  "会议纪要和下一步行动",
  "北京明天的天气怎么样",
  "请把结果翻译成中文",
  "Réunion d'équipe à Zürich",
  "café crème, résumé, naïve façade",
  "São Paulo → Málaga ✈️",
  "Ñandú über Straße",
  "launch checklist 🚀",
  "all tests pass ✅",
  "schedule 📅 next sprint",
  "東京の天気予報",
  'the "fast" path',
  "costs €1,250 (≈ ¥9 800)",
  "ship it 😀",
];
const names = ["Zoë Müller", "José Ñúñez", "李雷", "Ana Lúcia", "Ole Ødegård", "Chloé Dubois"];

/**
 * Builds the text of a realistic plan: a JSON array of `steps` steps in the
 * plankit wire format (tool, llm and reply steps with `{{id}}` references),
 * about 400 characters each, one step per line as models tend to write them.
 * Strings mix ASCII with CJK, accented letters and emoji; they hold `\n`,
 * `\t` and `\"` escapes, every "é" is written `\u00e9` and every 🚀 as the
 * surrogate pair `\ud83d\ude80`. Arguments nest objects and arrays and hold
 * integers, negative and fractional numbers, exponents, booleans and null.
 * The same `steps` and `seed` always give the same text.
 *
 * @param steps - how many steps (at least 1; the last is the reply).
 * @param seed - the pseudo-random seed.
 * @returns the JSON text.
 * @example
 * ```ts
 * const text = generatePlanText(100, 1);
 * JSON.parse(text).length; // 100
 * ```
 */
export function generatePlanText(steps: number, seed: number): string {
  const next = createRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const sentence = (words: number): string =>
    Array.from({ length: words }, () => pick(phrases)).join(pick([" ", "; ", "\n", " — "]));
  const reference = (index: number): string =>
    `{{s${1 + Math.floor(next() * index)}${next() < 0.5 ? "" : pick([".value", ".items.0.title", ".total"])}}}`;

  const lines: string[] = [];
  for (let index = 0; index < steps; index++) {
    const id = `s${index + 1}`;
    let step: Record<string, unknown>;
    if (index === steps - 1) {
      step = {
        id,
        type: "reply",
        text: `${sentence(4)}\n\n${index > 0 ? reference(index) : ""} — "${pick(phrases)}"\t(${pick(names)})`,
      };
    } else if (index > 0 && next() < 0.25) {
      step = {
        id,
        type: "llm",
        prompt: `Summarize ${reference(index)} for ${pick(names)}:\n${sentence(5)}`,
        temperature: Math.round(next() * 100) / 100,
        maxTokens: 256 + Math.floor(next() * 768),
      };
    } else {
      step = {
        id,
        type: "tool",
        name: pick(tools),
        arguments: {
          query: index > 0 && next() < 0.4 ? reference(index) : sentence(3),
          limit: 1 + Math.floor(next() * 50),
          offset: -Math.floor(next() * 10),
          threshold: Math.round(next() * 1e4) / 1e4,
          scale: Number((next() * 1e-6).toExponential(3)),
          exact: next() < 0.5,
          cursor: null,
          filters: {
            language: pick(["zh-CN", "en", "fr", "ja", "pt-BR"]),
            tags: [pick(phrases), pick(["a", "b", "c"]), pick(names), pick(phrases)],
            range: { from: 2000 + Math.floor(next() * 20), to: 2025, inclusive: next() < 0.5 },
          },
          options: { retries: Math.floor(next() * 4), timeoutMs: 1000 * (1 + Math.floor(next() * 30)) },
          note: `${pick(names)} said "${pick(phrases)}"\n\t${pick(phrases)}`,
        },
        ...(index > 1 && next() < 0.3 ? { dependsOn: [`s${1 + Math.floor(next() * index)}`] } : {}),
      };
    }
    lines.push(`  ${JSON.stringify(step)}`);
  }
  return `[\n${lines.join(",\n")}\n]`.replaceAll("é", "\\u00e9").replaceAll("🚀", "\\ud83d\\ude80");
}
