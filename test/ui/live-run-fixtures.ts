/**
 * What the live-run tests of the run store and of `<plankit-run>` share: a
 * registry of read-only, failing and approval-bound tools, and plans over it.
 *
 * @module
 */
import fc from "fast-check";
import { ToolRegistry } from "../../src/index.ts";
import { createScriptedModel } from "../../src/test.ts";

/** The tools of {@link liveRunRegistry}. */
type LiveRunTool = "read" | "flaky" | "note" | "mail";

/**
 * A registry of four tools: `read` (read-only), `flaky` (read-only, always
 * fails), `note` and `mail` (side effects, so an approval policy can hold them).
 *
 * @param delayMs - how long the read-only tools take, in ms (0: they answer at once).
 * @returns the registry.
 */
export function liveRunRegistry(delayMs = 0): ToolRegistry {
  const settle = () => (delayMs === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, delayMs)));
  return new ToolRegistry().register([
    {
      name: "read",
      description: "Read a fact",
      inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
      annotations: { readOnlyHint: true },
      execute: async ({ topic }) => {
        await settle();
        return { value: `fact about ${topic}` };
      },
    },
    {
      name: "flaky",
      description: "A service that is down",
      inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
      annotations: { readOnlyHint: true },
      execute: async () => {
        await settle();
        throw new Error("the service is down (503)");
      },
    },
    {
      name: "note",
      description: "Save a note",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: ({ text }) => ({ value: `saved ${text}` }),
    },
    {
      name: "mail",
      description: "Send a mail",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: ({ text }) => ({ value: `sent ${text}` }),
    },
  ]);
}

/**
 * Plans of one to `maxSteps` tool steps of {@link liveRunRegistry}, each
 * maybe using an earlier step's value, and their reply.
 *
 * @param maxSteps - the most tool steps.
 * @returns the arbitrary.
 */
export function liveRunPlans(maxSteps: number) {
  return fc
    .array(
      fc.record({ tool: fc.constantFrom<LiveRunTool>("read", "flaky", "note", "mail"), uses: fc.option(fc.nat()) }),
      { minLength: 1, maxLength: maxSteps },
    )
    .map((steps) => [
      ...steps.map(({ tool, uses }, index) => {
        const from = uses === null || index === 0 ? undefined : `{{s${(uses % index) + 1}.value}}`;
        const key = tool === "read" || tool === "flaky" ? "topic" : "text";
        return { id: `s${index + 1}`, tool, args: { [key]: from === undefined ? "Paris" : `about ${from}` } };
      }),
      { id: `s${steps.length + 1}`, reply: "Done." },
    ]);
}

/**
 * The scripted model of a live run: it plans `plan`, and re-plans a read
 * and a reply.
 *
 * @param plan - the plan (from {@link liveRunPlans}).
 * @returns the model.
 */
export function liveRunModel(plan: unknown) {
  return createScriptedModel({
    responses: {
      plan: () => JSON.stringify(plan),
      replan: () =>
        JSON.stringify([
          { id: "r1", tool: "read", args: { topic: "Rome" } },
          { id: "r2", reply: "Re-planned." },
        ]),
    },
  });
}
