import type { Playbook } from "../../src/decide/playbook.ts";
import type { Skill } from "../../src/decide/skill.ts";
import { type ToolDefinition, ToolRegistry } from "../../src/tools/tool-registry.ts";
import type { ToolSchema } from "../../src/tools/tool-schema.ts";

/** Skills of a small flight-booking conversation, each run by the tool of the same name. */
export const guidedSkills: Skill[] = [
  { name: "ask_name", description: "Read the traveller's name", outputs: { provides: ["profile.name"] } },
  {
    name: "read_destination",
    description: "Read where the traveller wants to go",
    outputs: { provides: ["destination"] },
  },
  { name: "read_dates", description: "Read the travel dates (YYYY-MM-DD)", outputs: { provides: ["dates"] } },
  {
    name: "find_flights",
    description: "Find flights for the trip",
    meta: { requires: { all: ["destination", "dates"] } },
    outputs: { provides: ["flight_options"] },
  },
  {
    name: "confirm_trip",
    description: "Read whether the traveller confirms the trip",
    meta: { requires: { all: ["flight_options"] } },
    outputs: { provides: ["decisions.confirmed"] },
  },
  {
    name: "luggage_faq",
    description: "Answer luggage questions",
    meta: { query: true },
    outputs: { provides: ["answer"] },
  },
];

/** Three phases over {@link guidedSkills}; the FAQ is the playbook-wide query skill. */
export function guidedPlaybook(): Playbook {
  return {
    id: "flights",
    allowed_skills: ["luggage_faq"],
    phases: [
      {
        id: "collect",
        description: "Who travels where and when",
        allowed_skills: ["ask_name", "read_destination", "read_dates"],
        checkpoints: ["profile.name", "destination", "dates"],
      },
      { id: "options", allowed_skills: ["find_flights"], checkpoints: ["flight_options"] },
      { id: "confirm", allowed_skills: ["confirm_trip"], gate_field: "decisions.confirmed", gate_value: true },
    ],
  };
}

const messageOnly = {
  type: "object",
  properties: { message: { type: "string" }, inputs: { type: "object" } },
  required: ["message", "inputs"],
  additionalProperties: false,
};

/** The tools of {@link guidedSkills}: keyword readers over the message, and a flight search. */
export function guidedTools(overrides: Partial<Record<string, ToolDefinition["execute"]>> = {}): ToolRegistry {
  const tool = (
    name: string,
    execute: ToolDefinition["execute"],
    inputSchema: ToolSchema = messageOnly,
  ): ToolDefinition => ({
    name,
    inputSchema,
    execute: overrides[name] ?? execute,
  });
  return new ToolRegistry().register([
    tool("ask_name", ({ message }) => {
      const name = /\b[Mm]y name is (\p{Lu}\p{L}*)/u.exec(String(message))?.[1];
      return name === undefined ? {} : { "profile.name": name };
    }),
    tool("read_destination", ({ message }) => {
      const city = /\bto (\p{Lu}\p{L}*)/u.exec(String(message))?.[1];
      return city === undefined ? {} : { destination: city };
    }),
    tool("read_dates", ({ message }) => {
      const dates = String(message).match(/\d{4}-\d{2}-\d{2}/gu) ?? [];
      return dates.length === 0 ? {} : { dates };
    }),
    tool(
      "find_flights",
      ({ inputs }) => {
        const { destination, dates } = inputs as { destination: string; dates: string[] };
        return { flight_options: [{ id: "TP123", to: destination, on: dates[0] }] };
      },
      {
        type: "object",
        properties: {
          message: { type: "string" },
          inputs: {
            type: "object",
            properties: { destination: { type: "string" }, dates: { type: "array" } },
            required: ["destination", "dates"],
          },
        },
        required: ["inputs"],
      },
    ),
    tool("confirm_trip", ({ message }) => (/\byes\b/iu.test(String(message)) ? { "decisions.confirmed": true } : {})),
    tool("luggage_faq", () => ({ answer: "One checked bag of up to 23 kg is included." })),
  ]);
}
