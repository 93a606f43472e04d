import { describe, expect, it } from "vitest";
import type { PlanIssue } from "../../src/plan.ts";
import { validatePlan } from "../../src/plan.ts";
import type { ToolDescriptor } from "../../src/tools.ts";
import { compileCatalog } from "../../src/tools.ts";

const orderTool: ToolDescriptor = {
  name: "create_order",
  description: "Create an order",
  inputSchema: {
    type: "object",
    properties: {
      customer: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          email: { type: "string", format: "email" },
          address: { $ref: "#/$defs/address" },
        },
        required: ["name", "email"],
      },
      items: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            sku: { type: "string", pattern: "^[A-Z]{3}-\\d{3}$" },
            quantity: { type: "integer", minimum: 1 },
            unit_price: { type: "number" },
          },
          required: ["sku", "quantity"],
          additionalProperties: false,
        },
      },
      delivery: { type: "string", enum: ["standard", "express"] },
      deliver_on: { type: "string", format: "date" },
      note: { anyOf: [{ type: "string" }, { type: "null" }] },
      website: { type: "string", format: "uri" },
    },
    required: ["customer", "items"],
    additionalProperties: false,
    $defs: {
      address: {
        type: "object",
        properties: { zip: { type: "string", pattern: "^\\d{5}$" }, city: { type: "string" } },
        required: ["city"],
      },
    },
  },
};

const validOrder = {
  customer: { name: "Ada", email: "ada@example.com", address: { zip: "12345", city: "Berlin" } },
  items: [{ sku: "ABC-123", quantity: 2, unit_price: 9.5 }],
  delivery: "express",
  deliver_on: "2025-03-01",
  note: null,
  website: "https://example.com/shop",
};

function check(args: Record<string, unknown>, tools: ToolDescriptor[] = [orderTool]): PlanIssue[] {
  const name = tools[0]?.name ?? "";
  return validatePlan(
    [
      { type: "tool", name, arguments: args },
      { type: "reply", text: "done" },
    ],
    tools,
  ).issues;
}

function brief(issues: readonly PlanIssue[]): [string, string, string][] {
  return issues.map((issue) => [
    issue.code,
    issue.path,
    issue.message.replace(/^Step "s1" \(tool "[^"]+"\): /u, "").replace(/ \([^()]*\)$/u, ""),
  ]);
}

describe("arguments against full JSON Schemas", () => {
  it("accepts valid arguments", () => {
    expect(check(validOrder)).toEqual([]);
  });

  it("names missing required arguments at any depth", () => {
    expect(brief(check({ customer: { email: "a@b.co", address: {} }, items: [{ sku: "ABC-123" }] }))).toEqual([
      ["missing-argument", "/steps/0/arguments/customer/name", 'missing required argument "customer.name"'],
      [
        "missing-argument",
        "/steps/0/arguments/customer/address/city",
        'missing required argument "customer.address.city"',
      ],
      ["missing-argument", "/steps/0/arguments/items/0/quantity", 'missing required argument "items[0].quantity"'],
    ]);
    expect(brief(check({}))).toEqual([
      ["missing-argument", "/steps/0/arguments/customer", 'missing required argument "customer"'],
      ["missing-argument", "/steps/0/arguments/items", 'missing required argument "items"'],
    ]);
  });

  it("reports integer versus number, enums, formats, patterns and limits with the value", () => {
    const issues = check({
      ...validOrder,
      items: [
        { sku: "ABC-123", quantity: 2.5, unit_price: 3 },
        { sku: "abc", quantity: 0, unit_price: "9" },
      ],
      delivery: "overnight",
      deliver_on: "2025-02-30",
      website: "not a url",
      customer: { name: "", email: "ada-at-example", address: { zip: "1234", city: "Berlin" } },
    });
    expect(brief(issues)).toEqual([
      [
        "invalid-argument",
        "/steps/0/arguments/customer/name",
        'argument "customer.name" is "", expected a string of at least 1 characters',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/customer/email",
        'argument "customer.email" is "ada-at-example", expected a string in format "email"',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/customer/address/zip",
        'argument "customer.address.zip" is "1234", expected a string matching /^\\d{5}$/',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/items/0/quantity",
        'argument "items[0].quantity" is 2.5, expected integer',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/items/1/sku",
        'argument "items[1].sku" is "abc", expected a string matching /^[A-Z]{3}-\\d{3}$/',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/items/1/quantity",
        'argument "items[1].quantity" is 0, expected a number >= 1',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/items/1/unit_price",
        'argument "items[1].unit_price" is "9", expected number',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/delivery",
        'argument "delivery" is "overnight", expected one of "standard", "express"',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/deliver_on",
        'argument "deliver_on" is "2025-02-30", expected a string in format "date"',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/website",
        'argument "website" is "not a url", expected a string in format "uri"',
      ],
    ]);
  });

  it("accepts an integer where a number is expected, and 2.0 as an integer", () => {
    expect(check({ ...validOrder, items: [{ sku: "ABC-123", quantity: 2.0, unit_price: 4 }] })).toEqual([]);
  });

  it("names unexpected arguments and the accepted ones", () => {
    expect(
      brief(check({ ...validOrder, coupon: "X", items: [{ sku: "ABC-123", quantity: 1, color: "red" }] })),
    ).toEqual([
      [
        "invalid-argument",
        "/steps/0/arguments/items/0/color",
        'unexpected argument "items[0].color" (accepted: sku, quantity, unit_price)',
      ],
      [
        "invalid-argument",
        "/steps/0/arguments/coupon",
        'unexpected argument "coupon" (accepted: customer, items, delivery, deliver_on, note, website)',
      ],
    ]);
  });

  it("describes anyOf alternatives and array limits", () => {
    expect(brief(check({ ...validOrder, note: 5, items: [] }))).toEqual([
      ["invalid-argument", "/steps/0/arguments/items", 'argument "items" is [], expected an array of at least 1 items'],
      ["invalid-argument", "/steps/0/arguments/note", 'argument "note" is 5, expected string or null'],
    ]);
  });

  it("reports a non-object arguments value as a structural problem", () => {
    expect(
      validatePlan([{ type: "tool", name: "create_order", arguments: "ABC-123 x2" }], [orderTool]).issues[0],
    ).toMatchObject({ code: "invalid-step", path: "/steps/0/arguments" });
  });
});

describe("drafts", () => {
  it("uses draft-07 when $schema says so: definitions, tuple items", () => {
    const tool: ToolDescriptor = {
      name: "move",
      description: "Move to a point",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        definitions: {
          point: { type: "array", items: [{ type: "number" }, { type: "number" }], additionalItems: false },
        },
        properties: { to: { $ref: "#/definitions/point" } },
        required: ["to"],
      },
    };
    expect(check({ to: [1, 2] }, [tool])).toEqual([]);
    expect(brief(check({ to: [1, "2"] }, [tool]))).toEqual([
      ["invalid-argument", "/steps/0/arguments/to/1", 'argument "to[1]" is "2", expected number'],
    ]);
    expect(brief(check({ to: [1, 2, 3] }, [tool])).map(([code, path]) => [code, path])).toEqual([
      ["invalid-argument", "/steps/0/arguments/to/2"],
    ]);
  });

  it("uses draft 2020-12 by default: $defs, prefixItems", () => {
    const tool: ToolDescriptor = {
      name: "move",
      description: "Move to a point",
      inputSchema: {
        type: "object",
        $defs: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
        properties: { to: { $ref: "#/$defs/point" } },
        required: ["to"],
      },
    };
    expect(check({ to: [1, 2] }, [tool])).toEqual([]);
    expect(brief(check({ to: [1, "2"] }, [tool]))).toEqual([
      ["invalid-argument", "/steps/0/arguments/to/1", 'argument "to[1]" is "2", expected number'],
    ]);
    expect(check({ to: [1, 2, 3] }, [tool]).map((issue) => issue.code)).toEqual(["invalid-argument"]);
  });
});

describe("references inside arguments", () => {
  const tools: ToolDescriptor[] = [{ name: "source", description: "", inputSchema: { type: "object" } }, orderTool];
  const plan = (args: Record<string, unknown>): unknown[] => [
    { type: "tool", name: "source", arguments: {} },
    { type: "tool", name: "create_order", arguments: args },
    { type: "reply", text: "ok" },
  ];

  it("does not judge an exact reference as a value: any value may arrive", () => {
    const args = {
      customer: "{{s1.customer}}",
      items: [{ sku: "{{s1.sku}}", quantity: "{{s1.count}}" }],
      delivery: "{{s1.mode}}",
    };
    expect(validatePlan(plan(args), tools).issues).toEqual([]);
  });

  it("treats a reference inside text as a string of unknown content", () => {
    expect(
      validatePlan(
        plan({ ...validOrder, customer: { name: "Ada", email: "{{s1.user}}@example.com" }, delivery: "{{s1.mode}}-x" }),
        tools,
      ).issues,
    ).toEqual([]);
    const issues = validatePlan(
      plan({ ...validOrder, items: [{ sku: "ABC-123", quantity: "{{s1.count}} pieces" }] }),
      tools,
    ).issues;
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["invalid-argument", "/steps/1/arguments/items/0/quantity"],
    ]);
  });

  it("still reports missing arguments next to references", () => {
    expect(validatePlan(plan({ customer: "{{s1.customer}}" }), tools).issues.map((issue) => issue.code)).toEqual([
      "missing-argument",
    ]);
  });
});

describe("compileCatalog", () => {
  it("compiles once per catalog object and exposes the checks", () => {
    const tools = [orderTool];
    const catalog = compileCatalog(tools);
    expect(compileCatalog(tools)).toBe(catalog);
    expect(compileCatalog(catalog)).toBe(catalog);
    expect(catalog.parameterNames("create_order")).toEqual([
      "customer",
      "items",
      "delivery",
      "deliver_on",
      "note",
      "website",
    ]);
    expect(catalog.checkArguments("create_order", validOrder)).toEqual([]);
    expect(catalog.checkArguments("create_order", { ...validOrder, delivery: 1 })).toEqual([
      {
        code: "invalid-argument",
        pointer: "/delivery",
        argument: "delivery",
        expected: 'one of "standard", "express"',
        actual: 1,
        text: 'argument "delivery" is 1, expected one of "standard", "express"',
      },
    ]);
    expect(() => catalog.checkArguments("nope", {})).toThrow('Tool "nope" is not in the catalog');
  });
});
