import { describe, expect, it } from "vitest";
import type { ToolDescriptor } from "../../src/tools.ts";
import { normalizeCatalog } from "../../src/tools.ts";
import { thrownBy as caught } from "../fixtures/catch-plankit-error.ts";
import { exampleTools } from "../fixtures/tools/example-tools.ts";

describe("normalizeCatalog", () => {
  const expected: ToolDescriptor[] = [
    { name: "arxiv_search", description: "Search arXiv papers", inputSchema: exampleTools.arxiv_search.input_schema },
    { name: "calculator", description: "Do arithmetic", inputSchema: exampleTools.calculator.input_schema },
  ];

  it("reads the record shape", () => {
    expect(normalizeCatalog(exampleTools)).toEqual(expected);
  });

  it("reads MCP tools/list arrays and results, Anthropic and OpenAI items", () => {
    expect(normalizeCatalog(expected)).toEqual(expected);
    expect(normalizeCatalog({ tools: expected })).toEqual(expected);
    expect(
      normalizeCatalog(
        expected.map(({ name, description, inputSchema }) => ({ name, description, input_schema: inputSchema })),
      ),
    ).toEqual(expected);
    expect(
      normalizeCatalog(
        expected.map(({ name, description, inputSchema }) => ({
          type: "function",
          function: { name, description, parameters: inputSchema },
        })),
      ),
    ).toEqual(expected);
  });

  it("keeps titles, output schemas and annotations, and fills defaults", () => {
    const tools = normalizeCatalog([
      {
        name: "a",
        title: "A",
        outputSchema: { type: "object" },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
          custom: 1,
        },
      },
      { name: "b", description: 5 },
    ]);
    expect(tools).toEqual([
      {
        name: "a",
        title: "A",
        description: "",
        inputSchema: { type: "object" },
        outputSchema: { type: "object" },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
          custom: 1,
        },
      },
      { name: "b", description: "", inputSchema: { type: "object" } },
    ]);
  });

  it("rejects malformed catalogs with invalid-catalog", () => {
    expect(caught(() => normalizeCatalog([{ description: "no name" }])).message).toBe(
      "Tool at [0] needs a non-empty string name, got undefined",
    );
    expect(caught(() => normalizeCatalog({ t: { input_schema: "object" } } as never)).message).toBe(
      'Tool "t" ("t") input schema must be a JSON Schema object, a map of parameters or a list of parameters, got "object"',
    );
    expect(caught(() => normalizeCatalog([{ name: "t" }, { name: "t" }])).message).toBe(
      'Tool "t" appears twice in the catalog',
    );
    expect(caught(() => normalizeCatalog([3])).code).toBe("invalid-catalog");
    expect(caught(() => normalizeCatalog(null as never)).code).toBe("invalid-catalog");
  });
});
