import { describe, expect, it } from "vitest";
import { buildPlanPrompt } from "../../src/planner/build-plan-prompt.ts";
import { buildReasoningPrompt } from "../../src/planner/build-reasoning-prompt.ts";
import { buildRepairPrompt } from "../../src/planner/build-repair-prompt.ts";
import { renderProfile } from "../../src/planner/render-profile.ts";
import { renderToolList } from "../../src/planner/render-tool-list.ts";
import type { ToolDescriptor } from "../../src/tools.ts";

const tools: ToolDescriptor[] = [
  {
    name: "calculator",
    description: "Do arithmetic",
    inputSchema: { type: "object", properties: { expr: { type: "string" } }, required: ["expr"] },
    outputSchema: { type: "object", properties: { value: { type: "number" } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: "send_email",
    description: "Send an email",
    inputSchema: { type: "object", properties: { to: { type: "string" } } },
    annotations: { readOnlyHint: false },
  },
  { name: "search", description: "Search the web", inputSchema: { type: "object" } },
];

describe("buildPlanPrompt", () => {
  it("states the strong constraints (only a JSON array; only the listed tools) and lists profile, query, tools and context", () => {
    const { system, prompt } = buildPlanPrompt({
      query: "What is 21*2+5? Mail it to Ann.",
      tools,
      profile: { name: "ResearchAgent", role: "planner", language: "zh" },
      context: "Goal: answer quickly",
      maxSteps: 4,
    });
    expect(system).toBe(`You are a planning module. Output a plan: a JSON array of steps, each one of
  {"id":"s1","tool":"<tool_name>","args":{...}} — call a tool
  {"id":"s2","prompt":"<instruction>"} — ask the language model, e.g. to summarize or reason over results
  {"id":"s3","reply":"<answer to the user>"} — the final answer
A string may use an earlier step's result as {{id}}, or a field of it as {{id.field.0.name}} (numbers index arrays): a string that is one reference becomes that value, else the value is inserted as text.
Rules:
- Use ONLY tools in AVAILABLE_TOOLS, by exact name; args MUST follow the tool's input_schema, every required argument given.
- Ids are unique (s1, s2, ...); a step refers only to steps before it.
- A step starts once the steps it refers to are done, so independent steps run in parallel: write them first, then the steps combining them.
- Tools with "read_only": true only read; use tools that change things only when the request asks for it.
- Use at most 4 steps. End with exactly one reply step.
- Output ONLY the JSON array (no prose, no code fences), one step per line, unindented.`);
    expect(prompt).toBe(`<PROFILE>
You are ResearchAgent, acting as planner. Reply in zh.
</PROFILE>

<USER_QUERY>
What is 21*2+5? Mail it to Ann.
</USER_QUERY>

<AVAILABLE_TOOLS>
[
{"name":"calculator","description":"Do arithmetic","input_schema":{"type":"object","properties":{"expr":{"type":"string"}},"required":["expr"]},"output_schema":{"type":"object","properties":{"value":{"type":"number"}}},"read_only":true},
{"name":"send_email","description":"Send an email","input_schema":{"type":"object","properties":{"to":{"type":"string"}}},"read_only":false},
{"name":"search","description":"Search the web","input_schema":{"type":"object"}}
]
</AVAILABLE_TOOLS>

<CONTEXT>
Goal: answer quickly
</CONTEXT>

Write the plan for USER_QUERY now: only the JSON array.`);
  });

  it("leaves out absent sections, takes a ready system prompt as profile, and adds the reasoning", () => {
    const { system, prompt } = buildPlanPrompt({
      query: "hi",
      tools: [],
      profile: "  Be brief.  ",
      reasoning: "Just greet.",
    });
    expect(system).toContain("- Use at most 6 steps.");
    expect(prompt).toBe(
      "<PROFILE>\nBe brief.\n</PROFILE>\n\n<USER_QUERY>\nhi\n</USER_QUERY>\n\n<AVAILABLE_TOOLS>\n[]\n</AVAILABLE_TOOLS>\n\n<REASONING>\nJust greet.\n</REASONING>\n\nTurn the REASONING into the plan for USER_QUERY now: only the JSON array.",
    );
    expect(buildPlanPrompt({ query: "hi", tools: [], maxSteps: 1 }).system).toContain("- Use at most 1 step.");
  });
});

describe("renderProfile", () => {
  it("renders the profile prompt with goals and constraints", () => {
    expect(renderProfile({ name: "ResearchAgent", role: "planner", language: "zh" })).toBe(
      "You are ResearchAgent, acting as planner. Reply in zh.",
    );
    expect(
      renderProfile({ name: "Ops", role: "", goals: ["Keep costs low", " "], constraints: ["Never delete data"] }),
    ).toBe("You are Ops.\nGoals:\n- Keep costs low\nConstraints:\n- Never delete data");
  });

  it("takes a ready system prompt as it is, trimmed, and no profile as nothing", () => {
    expect(renderProfile("  Answer in French.\n")).toBe("Answer in French.");
    expect(renderProfile(undefined)).toBe("");
  });
});

describe("the other prompts", () => {
  it("renders one tool per line", () => {
    expect(renderToolList([])).toBe("[]");
    expect(renderToolList(tools.slice(2)).split("\n")).toEqual([
      "[",
      '{"name":"search","description":"Search the web","input_schema":{"type":"object"}}',
      "]",
    ]);
  });

  it("asks for plain-language reasoning in sketch mode's first call", () => {
    const { system, prompt } = buildReasoningPrompt({ query: "q", tools });
    expect(system).toContain("Do not write JSON");
    expect(prompt).toContain("3. which steps need an earlier step's result");
    expect(prompt).toContain('"name":"send_email"');
  });

  it("shows the answer, the issues and the accepted steps in a repair", () => {
    const base = buildPlanPrompt({ query: "q", tools });
    const repair = buildRepairPrompt({
      base,
      output: " [oops ",
      issues: [
        { code: "invalid-step", index: -1, path: "", message: "The answer holds no JSON array of steps" },
        { code: "no-reply", index: 1, path: "/steps/1", message: "No reply" },
      ],
      accepted: [{ id: "s1", type: "tool", name: "search", arguments: {} }],
      stepsLeft: 1,
    });
    expect(repair.system).toBe(base.system);
    expect(repair.prompt.startsWith(base.prompt)).toBe(true);
    expect(repair.prompt.slice(base.prompt.length)).toBe(
      '\n\n<PREVIOUS_ANSWER>\n[oops\n</PREVIOUS_ANSWER>\n\n<ISSUES>\n- [invalid-step] The answer holds no JSON array of steps\n- [no-reply] No reply (/steps/1)\n</ISSUES>\n\n<ACCEPTED_STEPS>\n[\n{"id":"s1","type":"tool","name":"search","arguments":{}}\n]\n</ACCEPTED_STEPS>\n\n' +
        "Fix the ISSUES of your previous answer: output ONLY a JSON array of the steps that follow ACCEPTED_STEPS, which are kept (do not repeat them; new steps take new ids), ending with a reply step. Use at most 1 more step.",
    );
  });
});
