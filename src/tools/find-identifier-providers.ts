/**
 * Which tools produce the identifiers other tools need.
 *
 * @module
 */
import type { CompiledCatalog } from "./compile-catalog.ts";
import { isSchemaObject } from "./schema-navigation.ts";
import type { ToolDescriptor } from "./tool-descriptor.ts";

// More sources than this for one identifier and none of them is the obvious one.
const mostSources = 3;
// An identifier that this many tools return is too common to look further.
const mostCandidates = 64;

/**
 * The words of a name, lowercased and joined by spaces: `originSkyId` →
 * `origin sky id`, `product_id` → `product id`.
 *
 * @param name - a property or tool name.
 * @returns its words.
 */
function nameWords(name: string): string {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})|(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1$3 $2$4")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .join(" ");
}

/**
 * The identifiers among some property names: those whose last word is `id`
 * and that say of what (`geoId`, `product_id`, not `id`).
 *
 * @param names - property names.
 * @returns their words.
 */
function identifiers(names: readonly unknown[]): string[] {
  return names
    .filter((name): name is string => typeof name === "string" && /.id$/iu.test(name))
    .map(nameWords)
    .filter((words) => / id$/u.test(words));
}

/**
 * The property names of an object schema, and of its array's items.
 *
 * @param schema - a JSON Schema.
 * @returns the names.
 */
function propertyNames(schema: unknown): string[] {
  if (!isSchemaObject(schema)) return [];
  const properties = schema["properties"];
  return [...(isSchemaObject(properties) ? Object.keys(properties) : []), ...propertyNames(schema["items"])];
}

/**
 * The words of a tool name that say what it is about: three letters or more,
 * plurals aside (`Goodreads_Get_Authors_Books` → `goodread`, `get`, `author`,
 * `book`).
 *
 * @param tool - the descriptor.
 * @returns the words.
 */
function topicWords(tool: ToolDescriptor): string[] {
  return nameWords(tool.name)
    .split(" ")
    .filter((word) => word.length > 2)
    .map((word) => word.replace(/s$/u, ""));
}

const cache = new WeakMap<CompiledCatalog, ReadonlyMap<string, readonly (readonly string[])[]>>();

/**
 * Finds, for each tool that requires an identifier, the tools whose output
 * holds it: a request to "find hotels in Lisbon" needs the hotel search,
 * which takes a `geoId`, and the location search that returns one. An output
 * fills a parameter of the same words or whose words end with its own, two at
 * least (`skyId` fills `originSkyId`; `id` fills nothing). A source returns
 * the identifier without requiring it, and its name shares a word with the
 * tool it serves (one service, or one kind of thing: an `authorId` of one
 * site is not another's); when more than three tools qualify (or more than
 * 64 return it at all), none is taken: the identifier is too common to say
 * which. Tools without an output schema provide nothing. Built once per
 * catalog.
 *
 * @param catalog - the compiled catalog.
 * @returns tool name → per identifier it requires and some tool provides,
 *   the names of those tools; tools that need none are absent.
 *
 * @example
 * ```ts
 * findIdentifierProviders(compileCatalog(tools)).get("hotel_search"); // [["location_search"]]
 * ```
 */
export function findIdentifierProviders(catalog: CompiledCatalog): ReadonlyMap<string, readonly (readonly string[])[]> {
  let providers = cache.get(catalog);
  if (providers !== undefined) return providers;
  const needs = new Map<ToolDescriptor, string[]>();
  for (const tool of catalog.tools) {
    const schema: unknown = tool.inputSchema;
    needs.set(tool, identifiers(isSchemaObject(schema) && Array.isArray(schema["required"]) ? schema["required"] : []));
  }
  // Tools by the identifiers they return, so that a parameter looks up its
  // endings instead of scanning every tool's outputs.
  const returning = new Map<string, Set<ToolDescriptor>>();
  for (const tool of catalog.tools) {
    for (const words of identifiers(propertyNames(tool.outputSchema))) {
      // A tool that needs the identifier it returns is not where it comes from.
      if (needs.get(tool)?.some((needed) => ` ${needed}`.endsWith(` ${words}`))) continue;
      returning.set(words, (returning.get(words) ?? new Set()).add(tool));
    }
  }
  const found = new Map<string, string[][]>();
  for (const [tool, parameters] of needs) {
    const topic = new Set(topicWords(tool));
    for (const parameter of parameters) {
      const candidates = new Set<ToolDescriptor>();
      const words = parameter.split(" ");
      for (let start = 0; start < words.length - 1; start++) {
        for (const source of returning.get(words.slice(start).join(" ")) ?? [])
          if (source !== tool) candidates.add(source);
      }
      if (candidates.size > mostCandidates) continue;
      const sources = [...candidates].filter((source) => topicWords(source).some((word) => topic.has(word)));
      if (sources.length > 0 && sources.length <= mostSources) {
        found.set(tool.name, [...(found.get(tool.name) ?? []), sources.map((source) => source.name)]);
      }
    }
  }
  providers = found;
  cache.set(catalog, providers);
  return providers;
}
