/**
 * The offline demo model's plans.
 *
 * @module
 */
import type { PlanStep } from "../../src/index.ts";
import type { DemoIntent, DemoNotDone } from "./demo-intent.ts";
import { describeDemoPart } from "./describe-demo-part.ts";
import { describeExpression } from "./describe-expression.ts";
import { planFacts } from "./plan-facts.ts";
import { planLeapYears } from "./plan-leap-years.ts";
import { planMeasures } from "./plan-measures.ts";
import { planRate } from "./plan-rate.ts";
import { readDemoRequest } from "./read-demo-request.ts";

/** What {@link planDemoRequest} plans for. */
export interface DemoPlanInput {
  /** The user's request. */
  query: string;
  /** The names of the tools the plan may use. */
  tools: ReadonlySet<string>;
  /**
   * The most steps, the reply included.
   *
   * @defaultValue `6`
   */
  maxSteps?: number;
}

/** A text in English and in Chinese. */
type Texts = { en: string; zh: string };

/** What the offline model can do, with an example of each, and how to connect a real model. */
const abilities: Texts = {
  en:
    'I can do arithmetic ("What is 2 to the power of 10?"), convert units, durations included ("How many seconds are in 3.5 days?"), ' +
    'look up and combine facts of a small knowledge base ("How much taller is Everest than Fuji?"), tell the time in a city ("What time is it in Tokyo?") ' +
    'and save a note ("Save a note titled groceries with the text milk and eggs"). ' +
    "For anything else, connect a real model: set OPENAI_API_KEY (and OPENAI_BASE_URL for any OpenAI-compatible server) or bind Workers AI as AI, and restart.",
  zh:
    "我会算术（“2的10次方是多少？”）、单位换算，包括时长（“3.5天是多少秒？”）、查询并组合小知识库里的事实（“珠穆朗玛峰比富士山高多少？”）、" +
    "报城市的当前时间（“东京现在几点？”）和保存笔记（“保存一条笔记，标题是购物，内容是牛奶和鸡蛋”）。" +
    "其他请求请连接真正的模型：设置 OPENAI_API_KEY（OpenAI 兼容服务再加 OPENAI_BASE_URL），或绑定 Workers AI（AI），然后重启。",
};

/**
 * What the offline model says when it declines, in two sentences: that it
 * has no rule for the request and ran no tool, and what it can do instead.
 * (A greeting gets the longer list with examples.)
 *
 * @example
 * ```ts
 * declineText.en.startsWith("I am plankit's offline demo model"); // true
 * ```
 */
export const declineText: Texts = {
  en:
    "I am plankit's offline demo model and have no rule for this request, so I ran no tool. " +
    "I can do arithmetic, unit conversions, facts of a small knowledge base, the time in a city and notes; " +
    "for anything else, connect a real model: OPENAI_API_KEY (and OPENAI_BASE_URL) or Workers AI.",
  zh:
    "我是 plankit 的离线演示模型，没有处理这条请求的规则，所以没有调用任何工具。" +
    "我会算术、单位换算、查询小知识库里的事实、报城市时间和保存笔记；其他请求请连接真正的模型：OPENAI_API_KEY（及 OPENAI_BASE_URL）或 Workers AI。",
};

/**
 * What the offline model says of a number it would read only in part.
 *
 * @param words - the number as written.
 * @param zh - whether to answer in Chinese.
 * @returns the reply.
 */
function unreadNumberText(words: string, zh: boolean): string {
  return zh
    ? `我无法完整读出数字“${words}”，所以没有调用任何工具。请用普通数字写，例如 1500 或 1,500。`
    : `I cannot read the number "${words}" as written, so I ran no tool rather than answer about another number. Write it in plain digits, like 1500 or 1,500.`;
}

const greetingText: Texts = {
  en: `Hello! I am plankit's offline demo model. ${abilities.en}`,
  zh: `你好！我是 plankit 的离线演示模型。${abilities.zh}`,
};

const noteWithoutText: Texts = {
  en: 'What should the note say? Write it like "Save a note titled groceries with the text milk and eggs". I saved nothing.',
  zh: "笔记要写什么？请这样写：“保存一条笔记，标题是购物，内容是牛奶和鸡蛋”。我没有保存任何东西。",
};

/**
 * Plans a request over the demo tools, from what {@link readDemoRequest}
 * understood:
 *
 * - arithmetic → `calculator`; a conversion → `convert_units`;
 * - facts → one lookup per fact, independent so they run in parallel, then
 *   a `calculator` step that references them (`{{s1.value}} - {{s2.value}}`)
 *   for a sum, difference, ratio, "how many fit", per area or per person,
 *   and `convert_units` for "… in feet";
 * - the time in a city → its time zone from the knowledge base, then
 *   `current_time` with `{{s1.value}}`;
 * - a note → `save_note` with the title and text of the request; "… and
 *   save it as a note" → the answer's steps, then `save_note` quoting them;
 *
 * and a reply that quotes the results and their sources. A request it does
 * not understand, or that needs a tool it may not use or more steps than
 * allowed, gets a reply alone that says so: no tool runs — except that facts
 * are still looked up without the calculation or conversion that is not
 * allowed (or only as many as fit), and the reply says what was left out.
 *
 * @param input - the request, the usable tools and the step limit.
 * @returns canonical steps with ids `s1`, `s2`, …, the reply last.
 *
 * @example
 * ```ts
 * planDemoRequest({ query: "How much taller is Everest than Fuji?", tools: new Set(["kb_lookup", "calculator"]) });
 * // [kb_lookup height of Mount Everest, kb_lookup height of Mount Fuji, calculator round(abs({{s1.value}} - {{s2.value}}), 2), reply]
 * ```
 */
export function planDemoRequest(input: DemoPlanInput): PlanStep[] {
  return showCalculated(planSteps(input));
}

/**
 * Makes the reply quote each calculated figure as text with thousands
 * separators (`{{s3.text}}`, "5,072.86"), as the facts and conversions it
 * stands beside are written, rather than as the bare number.
 *
 * @param steps - the plan, the reply last.
 * @returns the plan with the reply's calculated figures as text.
 */
function showCalculated(steps: PlanStep[]): PlanStep[] {
  const calculated = new Set(
    steps.flatMap((step) => (step.type === "tool" && step.name === "calculator" ? [step.id] : [])),
  );
  return steps.map((step) =>
    step.type === "reply"
      ? {
          ...step,
          text: step.text.replace(/\{\{(s\d+)\.value\}\}/gu, (reference, id: string) =>
            calculated.has(id) ? `{{${id}.text}}` : reference,
          ),
        }
      : step,
  );
}

/**
 * Plans a request (see {@link planDemoRequest}).
 *
 * @param input - the request, the usable tools and the step limit.
 * @returns the steps, the reply last.
 */
function planSteps(input: DemoPlanInput): PlanStep[] {
  // Braces in the request must not turn into references when the request is quoted in a step.
  const query = input.query.trim().replace(/\{\{|\}\}/gu, (pair) => `${pair[0] ?? ""} ${pair[1] ?? ""}`);
  const zh = /\p{Script=Han}/u.test(query);
  const say = (texts: Texts): string => (zh ? texts.zh : texts.en);
  const maxSteps = Math.max(1, input.maxSteps ?? 6);
  const intent = readDemoRequest(query);
  const reply = (text: string): PlanStep[] => [{ id: "s1", type: "reply", text }];
  if (intent.kind === "decline") {
    if (intent.reason === "unread-number") return reply(unreadNumberText(intent.words, zh));
    return reply(
      say(
        intent.reason === "greeting"
          ? greetingText
          : intent.reason === "note-without-text"
            ? noteWithoutText
            : declineText,
      ),
    );
  }

  const lookupTool =
    /\b(?:slow|archives?|thorough|deep)\b|档案/u.test(query.toLowerCase()) && input.tools.has("slow_lookup")
      ? "slow_lookup"
      : "kb_lookup";
  const build = (
    understood: Exclude<DemoIntent, { kind: "decline" }>,
  ): { steps: PlanStep[]; text: string; missing: string[] } => {
    const steps: PlanStep[] = [];
    const add = (step: Record<string, unknown>): string => {
      const id = `s${steps.length + 1}`;
      steps.push({ id, ...step } as PlanStep);
      return id;
    };
    const text = planIntent(understood, add, lookupTool, zh);
    const needed = [...new Set(steps.flatMap((step) => (step.type === "tool" ? [step.name] : [])))];
    return { steps, text, missing: needed.filter((name) => !input.tools.has(name)) };
  };
  if (intent.kind === "several") return planSeveral(intent, build, maxSteps, zh);
  let plan = build(intent);
  const notes: string[] = [];
  if (intent.kind === "facts" && (plan.missing.length > 0 || plan.steps.length + 1 > maxSteps)) {
    // Keep the lookups the request allows, and say what was left out rather than plan a step that cannot run.
    const why =
      plan.missing.length > 0
        ? zh
          ? `本次请求不允许使用 ${plan.missing.join("、")}`
          : `this request does not allow ${plan.missing.join(", ")}`
        : zh
          ? `计划最多 ${maxSteps} 步`
          : `the plan may have at most ${maxSteps} steps`;
    let lookups = intent.lookups;
    if (intent.combination !== undefined || intent.targetUnit !== undefined)
      notes.push(zh ? `我没有做计算或换算：${why}。` : `I left out the calculation: ${why}.`);
    if (lookups.length > maxSteps - 1) {
      notes.push(
        zh
          ? `只查了 ${intent.lookups.length} 项中的前 ${maxSteps - 1} 项：${why}。`
          : `I looked up only ${maxSteps - 1} of the ${intent.lookups.length} facts: ${why}.`,
      );
      lookups = lookups.slice(0, Math.max(0, maxSteps - 1));
    }
    if (lookups.length > 0) plan = build({ kind: "facts", lookups });
  }
  if (plan.missing.length > 0) {
    return reply(
      zh
        ? `这个请求需要工具 ${plan.missing.join("、")}，但本次请求不允许使用它，所以我没有调用任何工具。`
        : `This request needs the tool${plan.missing.length === 1 ? "" : "s"} ${plan.missing.join(", ")}, which this request does not allow, so I ran no tool.`,
    );
  }
  if (plan.steps.length + 1 > maxSteps) {
    return reply(
      zh
        ? `这个请求需要 ${plan.steps.length + 1} 步，超过了 ${maxSteps} 步的上限，所以我没有调用任何工具。`
        : `This request needs ${plan.steps.length + 1} steps, more than the limit of ${maxSteps}, so I ran no tool.`,
    );
  }
  return [...plan.steps, { id: `s${plan.steps.length + 1}`, type: "reply", text: [plan.text, ...notes].join(" ") }];
}

/**
 * Says which parts of a request were not done, and why: "Not done: "write
 * me a limerick" — the offline demo model has no rule for it." It comes
 * last in the reply and quotes no step, so a re-plan can carry it over.
 *
 * @param parts - the words of each part, with why it was not done.
 * @param zh - whether to answer in Chinese.
 * @returns the sentence, or `""` when every part was done.
 */
function describeNotDone(parts: readonly { words: string; why: string }[], zh: boolean): string {
  if (parts.length === 0) return "";
  return zh
    ? `未完成：${parts.map((part) => `“${part.words}”（${part.why}）`).join("；")}。`
    : `Not done: ${parts.map((part) => `"${part.words}" (${part.why})`).join("; ")}.`;
}

/**
 * Why the model did not do a part, in words.
 *
 * @param part - the part not done.
 * @param zh - whether to answer in Chinese.
 * @returns the reason.
 */
function explainNotDone(part: DemoNotDone, zh: boolean): string {
  if (part.reason === "given-figure")
    return zh
      ? "离线演示模型不拿知识库的事实和请求里给出的数值比较或计算"
      : "the offline demo model does not compare or combine facts with figures the request gives";
  if (part.reason === "unread-number")
    return zh ? "离线演示模型无法完整读出其中的数字" : "the offline demo model cannot read a number in it as written";
  if (part.reason === "other-year")
    return zh ? "知识库里的数值只属于它所注明的年份" : "the knowledge base has its figure for the year it states only";
  return zh ? "离线演示模型没有处理这类请求的规则" : "the offline demo model has no rule for it";
}

/**
 * Plans a request of several parts: each part it can do, in order, while
 * its tools are allowed and the plan stays within the step limit; the reply
 * answers those and names the others, with why each was not done.
 *
 * @param intent - the parts.
 * @param build - plans one part.
 * @param maxSteps - the most steps, the reply included.
 * @param zh - whether to answer in Chinese.
 * @returns the steps, the reply last.
 */
function planSeveral(
  intent: Extract<DemoIntent, { kind: "several" }>,
  build: (understood: Exclude<DemoIntent, { kind: "decline" }>) => {
    steps: PlanStep[];
    text: string;
    missing: string[];
  },
  maxSteps: number,
  zh: boolean,
): PlanStep[] {
  const notDone = intent.notDone.map((part) => ({ words: part.words, why: explainNotDone(part, zh) }));
  const done: typeof intent.parts = [];
  const texts: string[] = [];
  let steps: PlanStep[] = [];
  for (const part of intent.parts) {
    const trial = build({ kind: "several", parts: [...done, part], notDone: [] });
    const words = describeDemoPart(part);
    if (trial.missing.length > 0) {
      notDone.push({
        words,
        why: zh
          ? `本次请求不允许使用 ${trial.missing.join("、")}`
          : `this request does not allow ${trial.missing.join(", ")}`,
      });
    } else if (trial.steps.length + 1 > maxSteps) {
      notDone.push({ words, why: zh ? `计划最多 ${maxSteps} 步` : `the plan may have at most ${maxSteps} steps` });
    } else {
      done.push(part);
      steps = trial.steps;
      texts.splice(0, texts.length, trial.text);
    }
  }
  const text = [...texts, describeNotDone(notDone, zh)].filter((part) => part !== "").join(" ");
  if (steps.length === 0)
    return [{ id: "s1", type: "reply", text: `${zh ? "我没有调用任何工具。" : "I ran no tool."} ${text}` }];
  return [...steps, { id: `s${steps.length + 1}`, type: "reply", text }];
}

/**
 * Adds the tool steps of an understood request and writes the reply's text.
 *
 * @param intent - what the request asks.
 * @param add - adds a step and returns its id.
 * @param lookupTool - `kb_lookup`, or `slow_lookup` when the request asks for the archive.
 * @param zh - whether to answer in Chinese.
 * @returns the reply text, with references to the steps.
 */
function planIntent(
  intent: Exclude<DemoIntent, { kind: "decline" }>,
  add: (step: Record<string, unknown>) => string,
  lookupTool: string,
  zh: boolean,
): string {
  switch (intent.kind) {
    case "save-answer": {
      const answer = planIntent(intent.of, add, lookupTool, zh);
      // The note quotes the results by reference, so it waits for them; as a side effect it also waits for the whole plan.
      const id = add({ type: "tool", name: "save_note", arguments: { title: intent.title, text: answer } });
      return `${answer} ${zh ? `已保存为笔记“{{${id}.title}}”。` : `I saved this as the note "{{${id}.title}}".`}`;
    }
    case "arithmetic": {
      const id = add({ type: "tool", name: "calculator", arguments: { expr: intent.expr } });
      return `${describeExpression(intent.expr)} = {{${id}.value}}${zh ? "。" : "."}`;
    }
    case "convert": {
      const id = add({
        type: "tool",
        name: "convert_units",
        arguments: { value: intent.value, from: intent.from, to: intent.to },
      });
      return `{{${id}.text}}${zh ? "。" : "."}`;
    }
    case "note": {
      const id = add({ type: "tool", name: "save_note", arguments: { title: intent.title, text: intent.text } });
      return zh
        ? `已保存笔记“{{${id}.title}}”（{{${id}.chars}} 个字符）。`
        : `I saved the note "{{${id}.title}}" ({{${id}.chars}} characters).`;
    }
    case "time": {
      if (intent.subjects.length === 0) {
        const clock = add({ type: "tool", name: "current_time", arguments: {} });
        return zh ? `现在是 {{${clock}.local}}（UTC）。` : `It is {{${clock}.local}} (UTC).`;
      }
      const zones = intent.subjects.map((subject) => ({
        subject,
        id: add({ type: "tool", name: lookupTool, arguments: { query: `time zone of ${subject}` } }),
      }));
      const parts = zones.map(({ subject, id }) => {
        const clock = add({ type: "tool", name: "current_time", arguments: { timeZone: `{{${id}.value}}` } });
        return zh
          ? `${subject}现在是 {{${clock}.local}}（{{${clock}.timeZone}}，{{${clock}.offset}}）。`
          : `In ${subject} it is {{${clock}.local}} ({{${clock}.timeZone}}, {{${clock}.offset}}).`;
      });
      return `${parts.join(" ")} ${zh ? "来源" : "Source"}: {{${zones[0]?.id ?? "s1"}.source}}.`;
    }
    case "facts":
      return planFacts(intent, add, lookupTool, zh);
    case "leap-years":
      return planLeapYears(intent.years, add, zh);
    case "pace":
    case "speed":
    case "travel-time":
      return planRate(intent, add, zh);
    case "measures":
      return planMeasures(intent, add, zh);
    case "several": {
      const notDone = describeNotDone(
        intent.notDone.map((part) => ({ words: part.words, why: explainNotDone(part, zh) })),
        zh,
      );
      return [...intent.parts.map((part) => planIntent(part, add, lookupTool, zh)), notDone]
        .filter((text) => text !== "")
        .join(" ");
    }
  }
}
