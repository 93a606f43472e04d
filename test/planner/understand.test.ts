import { describe, expect, it } from "vitest";
import { LLMPlanner, renderGoal, understandRequest } from "../../src/index.ts";
import { buildGoalPrompt } from "../../src/planner/build-goal-prompt.ts";
import { readGoal } from "../../src/planner/read-goal.ts";
import { createScriptedModel } from "../../src/test.ts";

const query = "分析我们北美市场Q1-Q2主要产品的销售增长趋势,识别增长关键驱动因素和潜在风险";

describe("understandRequest", () => {
  it("reads a snake_case goal answer into a structured goal", async () => {
    const answer = `\`\`\`json\n${JSON.stringify({
      core_objective: "分析北美市场Q1-Q2主要产品的销售增长趋势",
      implicit_requirements: ["覆盖北美市场的主要产品销售数据", "细分时间段为Q1和Q2进行趋势对比"],
      key_metrics: ["销售额增长率", "市场份额变化"],
      time_constraint: "Q1-Q2",
      quality_requirement: "高",
      risk_factors: ["市场竞争加剧"],
      uncertainty_level: "中",
      required_resources: ["销售数据"],
    })}\n\`\`\``;
    const model = createScriptedModel({ responses: [answer] });
    const goal = await understandRequest({ model, query });
    expect(goal).toEqual({
      objective: "分析北美市场Q1-Q2主要产品的销售增长趋势",
      requirements: ["覆盖北美市场的主要产品销售数据", "细分时间段为Q1和Q2进行趋势对比"],
      constraints: [],
      metrics: ["销售额增长率", "市场份额变化"],
      risks: ["市场竞争加剧"],
      resources: ["销售数据"],
      time: "Q1-Q2",
      quality: "high",
      uncertainty: "medium",
      sensitive: false,
    });
    expect(model.requests[0]?.prompt).toContain(`<USER_QUERY>\n${query}\n</USER_QUERY>`);
  });

  it("falls back to the query as the objective when the answer is unreadable", async () => {
    const goal = await understandRequest({
      model: createScriptedModel({ responses: ["I think you want sales numbers."] }),
      query: " Reset my password ",
    });
    expect(goal).toEqual({
      objective: "Reset my password",
      requirements: [],
      constraints: [],
      metrics: [],
      risks: [],
      resources: [],
      sensitive: true,
    });
  });

  it("renders a goal as planning context", () => {
    const goal = readGoal(
      {
        objective: "Compare Q1 and Q2 sales",
        constraints: ["North America only"],
        time: "Q1-Q2",
        quality: "HIGH",
        metrics: "growth rate",
        risks: [],
      },
      "x",
    );
    expect(renderGoal(goal)).toBe(
      [
        "Goal: Compare Q1 and Q2 sales",
        "Constraints:",
        "- North America only",
        "- time: Q1-Q2",
        "- quality: high",
        "Success metrics:",
        "- growth rate",
      ].join("\n"),
    );
  });

  it("plans with the goal as context", async () => {
    const model = createScriptedModel({
      responses: [
        '{"objective":"Compare sales","constraints":["North America only"]}',
        '[{"type":"reply","text":"ok"}]',
      ],
    });
    const planner = new LLMPlanner({ model });
    const goal = await understandRequest({ model, query: "compare sales" });
    await planner.plan({ query: "compare sales", tools: [], context: renderGoal(goal) });
    expect(model.requests[1]?.prompt).toContain(
      "<CONTEXT>\nGoal: Compare sales\nConstraints:\n- North America only\n</CONTEXT>",
    );
  });

  it("asks for one JSON object with the goal's fields", () => {
    const { system, prompt } = buildGoalPrompt({ query: "q", profile: { name: "Analyst", role: "planner" } });
    expect(system).toContain("Output ONLY a JSON object");
    expect(prompt.startsWith("<PROFILE>\nYou are Analyst, acting as planner.\n</PROFILE>")).toBe(true);
    expect(prompt).toContain('"objective":"...","requirements":["..."],"constraints":["..."]');
  });

  it("refuses what it cannot use, naming the field and the value", async () => {
    const model = createScriptedModel({ responses: [] });
    await expect(understandRequest({ model: {} as never, query: "q" })).rejects.toThrow(
      "Option model must be a PlanModel with a stream() method, got {}",
    );
    await expect(understandRequest({ model, query: "q", signl: undefined } as never)).rejects.toThrow(
      'Unknown understandRequest option "signl"; did you mean "signal"?',
    );
    await expect(understandRequest({ model, query: "q", modelTimeouts: { idleMs: -1, totalMs: 5 } })).rejects.toThrow(
      "modelTimeouts.idleMs must be a number > 0, got -1",
    );
    expect(model.requests).toEqual([]);
  });

  it("reads an answer cut off by the length limit as unreadable: a half-written objective is not a goal", async () => {
    const model = createScriptedModel({ responses: [{ text: '{"objective":"cut', finishReason: "length" }] });
    const goal = await understandRequest({ model, query: "Cut my costs by a third" });
    expect(goal.objective).toBe("Cut my costs by a third");
  });

  it("refuses a request it cannot send, naming what is wrong, before any model call", async () => {
    const model = createScriptedModel({ responses: [] });
    const call = understandRequest as (...args: unknown[]) => Promise<unknown>;
    const refusals: [unknown[], string][] = [
      [["Analyse sales"], 'understandRequest takes one object, { model, query }, got "Analyse sales"'],
      [[model, "q"], "understandRequest takes one object, { model, query }, got {"],
      [[{ model }], "Option query must be the request, a non-blank string, got undefined"],
      [[{ model, query: "  " }], 'Option query must be the request, a non-blank string, got "  "'],
      [[{ model, query: "q", profile: 5 }], "Option profile must be a profile object or a string, got 5"],
      [[{ model, query: "q", signal: true }], "Option signal must be an AbortSignal, got true"],
      [[{ model: new LLMPlanner({ model }), query: "q" }], "(a planner was given: pass planner.model)"],
    ];
    for (const [args, message] of refusals) await expect(call(...args)).rejects.toThrow(message);
    expect(model.requests).toEqual([]);
    // What is right passes: a real signal, a string profile.
    const answering = createScriptedModel({ responses: ['{"objective":"q"}'] });
    const signal = new AbortController().signal;
    expect((await understandRequest({ model: answering, query: "q", signal, profile: "You plan." })).objective).toBe(
      "q",
    );
  });

  it("refuses to render what is not a goal, a promise of one included", async () => {
    const goal = understandRequest({ model: createScriptedModel({ responses: ['{"objective":"x"}'] }), query: "x" });
    expect(() => renderGoal(goal as never)).toThrow(
      "renderGoal takes the goal understandRequest resolves to (await it), got",
    );
    expect(() => renderGoal({ objective: "x" } as never)).toThrow("renderGoal takes the goal");
    expect(renderGoal(await goal)).toBe("Goal: x");
  });
});
