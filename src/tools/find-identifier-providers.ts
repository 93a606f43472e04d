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
 * The words of a property name, lowercased: `originSkyId` → `origin sky id`,
 * `product_id` → `product id`.
 *
 * @param name - a property name.
 * @returns its words.
 */
function nameWords(name: string): string[] {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/**
 * The names of an object schema's properties, one level deep and in the
 * items of an array.
 *
 * @param schema - a JSON Schema.
 * @returns the property names.
 */
function propertyNames(schema: unknown): string[] {
  if (!isSchemaObject(schema)) return [];
  const properties = schema["properties"];
  const own = isSchemaObject(properties) ? Object.keys(properties) : [];
  return [...own, ...(isSchemaObject(schema["items"]) ? propertyNames(schema["items"]) : [])];
}

/**
 * The identifier parameters a tool requires: required inputs whose name
 * ends with the word `id` and says of what (`geoId`, `product_id`, not `id`).
 *
 * @param tool - the descriptor.
 * @returns each parameter's words.
 */
function requiredIdentifiers(tool: ToolDescriptor): string[][] {
  const schema = tool.inputSchema as unknown;
  const required = isSchemaObject(schema) && Array.isArray(schema["required"]) ? schema["required"] : [];
  return required
    .filter((name): name is string => typeof name === "string")
    .map(nameWords)
    .filter((words) => words.length >= 2 && words.at(-1) === "id");
}

/**
 * Whether an output property can fill an identifier parameter: same words,
 * or the parameter's words end with all of the property's, two at least
 * (`originSkyId` is filled by `skyId`, not by `id`).
 *
 * @param parameter - the parameter's words.
 * @param output - the output property's words.
 * @returns whether it fits.
 */
function fills(parameter: readonly string[], output: readonly string[]): boolean {
  if (output.length < 2 || output.length > parameter.length) return false;
  const offset = parameter.length - output.length;
  return output.every((word, at) => parameter[offset + at] === word);
}

/**
 * The words of a tool name that say what it is about: three letters or
 * more, plurals aside (`Goodreads_Get_Authors_Books` → `goodread`, `get`,
 * `author`, `book`). Tools that share one are of one service or about one
 * thing.
 *
 * @param name - a tool name.
 * @returns the words.
 */
function topicWords(name: string): Set<string> {
  return new Set(
    nameWords(name)
      .filter((word) => word.length >= 3)
      .map((word) => word.replace(/s$/u, "")),
  );
}

const cache = new WeakMap<CompiledCatalog, ReadonlyMap<string, readonly (readonly string[])[]>>();

/**
 * Finds, for each tool that requires an identifier, the tools whose output
 * holds it: a request to "find hotels in Lisbon" needs the hotel search,
 * which takes a `geoId`, and the location search that returns one. A source
 * is a tool that returns the identifier without requiring it and whose name
 * shares a word with the tool it serves (one service, or one kind of thing:
 * an `authorId` of one site is not another's); when more than three tools
 * qualify (or more than 64 return it at all), none is taken: the identifier
 * is too common to say which. Tools without an output schema provide
 * nothing. Built once per catalog.
 *
 * @param catalog - the compiled catalog.
 * @returns tool name → per identifier it requires and some tool provides,
 *   the names of those tools in catalog order; tools that need none are absent.
 *
 * @example
 * ```ts
 * findIdentifierProviders(compileCatalog(tools)).get("hotel_search"); // [["location_search"]]
 * ```
 */
export function findIdentifierProviders(catalog: CompiledCatalog): ReadonlyMap<string, readonly (readonly string[])[]> {
  const cached = cache.get(catalog);
  if (cached !== undefined) return cached;
  // Output property names by their words, so that each parameter looks up
  // its suffixes instead of scanning every tool's outputs.
  const needs = new Map(catalog.tools.map((tool) => [tool, requiredIdentifiers(tool)]));
  const order = new Map(catalog.tools.map((tool, at) => [tool, at]));
  const topicsOf = new Map<ToolDescriptor, Set<string>>();
  const topics = (tool: ToolDescriptor): Set<string> => {
    let words = topicsOf.get(tool);
    if (words === undefined) topicsOf.set(tool, (words = topicWords(tool.name)));
    return words;
  };
  const returning = new Map<string, Set<ToolDescriptor>>();
  for (const tool of catalog.tools) {
    // Only names ending in "id" can fill an identifier; skip the rest unsplit.
    for (const words of propertyNames(tool.outputSchema).filter((name) => /id$/iu.test(name)).map(nameWords)) {
      // A tool that needs the identifier it returns is not where it comes from.
      if (words.length < 2 || (needs.get(tool) ?? []).some((needed) => fills(needed, words))) continue;
      const key = words.join(" ");
      const set = returning.get(key) ?? new Set();
      set.add(tool);
      returning.set(key, set);
    }
  }
  const providers = new Map<string, string[][]>();
  for (const tool of catalog.tools) {
    const found: string[][] = [];
    for (const parameter of needs.get(tool) ?? []) {
      const candidates = new Set<ToolDescriptor>();
      for (let start = 0; start + 2 <= parameter.length; start++) {
        for (const source of returning.get(parameter.slice(start).join(" ")) ?? []) if (source !== tool) candidates.add(source);
      }
      if (candidates.size > mostCandidates) continue;
      const topic = topics(tool);
      const sources = [...candidates].filter((source) => [...topics(source)].some((word) => topic.has(word)));
      if (sources.length > 0 && sources.length <= mostSources) {
        found.push(sources.sort((x, y) => (order.get(x) ?? 0) - (order.get(y) ?? 0)).map((source) => source.name));
      }
    }
    if (found.length > 0) providers.set(tool.name, found);
  }
  cache.set(catalog, providers);
  return providers;
}
