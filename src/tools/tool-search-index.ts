/**
 * The BM25 index behind `rankTools` and `selectTools`, built once per catalog.
 *
 * @module
 */
import type { CompiledCatalog } from "./compile-catalog.ts";
import { defaultToolSynonyms } from "./default-tool-synonyms.ts";
import { isSchemaObject } from "./schema-navigation.ts";
import { tokenizeText } from "./tokenize-text.ts";
import type { JsonSchema, ToolDescriptor } from "./tool-descriptor.ts";

/** A tool and how well it matches. */
export interface ToolScore {
  /** The tool name. */
  name: string;
  /** Higher is better; only the order within one ranking means anything. */
  score: number;
}

/** Options of the lexical ranking. */
export interface ToolSearchOptions {
  /**
   * A bilingual glossary (`{ 中文: "english words" }`) used to expand queries
   * both ways, or `false` for none.
   *
   * @defaultValue `defaultToolSynonyms`
   */
  synonyms?: Readonly<Record<string, string>> | false;
}

/** A built index. */
export interface ToolSearchIndex {
  /** The number of tools. */
  readonly size: number;
  /**
   * Ranks the tools for a query.
   *
   * @param query - the request text.
   * @param options - the glossary.
   * @param limit - keep only this many best results.
   * @returns matching tools, best first, ties in catalog order.
   */
  search(query: string, options?: ToolSearchOptions, limit?: number): ToolScore[];
}

// BM25 parameters and field weights: a name is the strongest evidence of
// what a tool does, a parameter's description weak, an output's the weakest.
const k1 = 1.2;
const b = 0.75;
const nameWeight = 3;
const titleWeight = 2;
const descriptionWeight = 1;
const parameterNameWeight = 1;
const parameterTextWeight = 0.5;
// What a tool returns says what it is for ("the number of plays" → `play_count`),
// less surely than what it takes.
const outputNameWeight = 0.5;
const outputTextWeight = 0.25;
const expansionWeight = 0.6;
// A single Chinese character is weak evidence next to a bigram (查 in 查询, 查找, 检查…).
const singleCharacterWeight = 0.3;
const singleCjkCharacter = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** The fields of a tool that are searched, each with its own length normalization. */
const Field = {
  Name: 0,
  Title: 1,
  Description: 2,
  ParameterName: 3,
  ParameterText: 4,
  OutputName: 5,
  OutputText: 6,
} as const;
type Field = (typeof Field)[keyof typeof Field];
const fieldCount = 7;
const fieldWeights = [
  nameWeight,
  titleWeight,
  descriptionWeight,
  parameterNameWeight,
  parameterTextWeight,
  outputNameWeight,
  outputTextWeight,
];

/** A tool's terms, counted per field. */
type FieldBags = Map<string, number>[];

/**
 * Counts the terms of a text in one field.
 *
 * @param bags - the tool's bags.
 * @param field - the field.
 * @param text - the text.
 */
function addText(bags: FieldBags, field: Field, text: string): void {
  const bag = bags[field] as Map<string, number>;
  for (const term of tokenizeText(text)) bag.set(term, (bag.get(term) ?? 0) + 1);
}

/**
 * Adds property names, descriptions and enum values (two levels deep).
 *
 * @param bags - the tool's bags.
 * @param schema - an object schema.
 * @param depth - the current depth.
 * @param nameField - the field property names go to.
 * @param textField - the field descriptions and enum values go to.
 */
function addParameters(bags: FieldBags, schema: unknown, depth: number, nameField: Field, textField: Field): void {
  if (!isSchemaObject(schema) || depth > 2) return;
  const properties = schema["properties"];
  if (isSchemaObject(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      addText(bags, nameField, name);
      if (!isSchemaObject(property)) continue;
      if (typeof property["description"] === "string") addText(bags, textField, property["description"]);
      if (Array.isArray(property["enum"])) {
        addText(bags, textField, property["enum"].filter((item) => typeof item === "string").join(" "));
      }
      addParameters(bags, property, depth + 1, nameField, textField);
      addParameters(bags, property["items"], depth + 1, nameField, textField);
    }
  }
}

/**
 * The terms of one tool, per field.
 *
 * @param tool - the descriptor.
 * @returns one bag per field, term → count.
 */
function documentFields(tool: ToolDescriptor): FieldBags {
  const bags: FieldBags = Array.from({ length: fieldCount }, () => new Map<string, number>());
  addText(bags, Field.Name, tool.name);
  if (tool.title !== undefined) addText(bags, Field.Title, tool.title);
  else if (typeof tool.annotations?.title === "string") addText(bags, Field.Title, tool.annotations.title);
  addText(bags, Field.Description, tool.description);
  addParameters(bags, tool.inputSchema as JsonSchema, 0, Field.ParameterName, Field.ParameterText);
  addParameters(bags, tool.outputSchema as JsonSchema, 0, Field.OutputName, Field.OutputText);
  return bags;
}

const reverseGlossaries = new WeakMap<object, Map<string, string[]>>();

/**
 * English term → Chinese glossary keys, built once per glossary.
 *
 * @param synonyms - the glossary.
 * @returns the reverse glossary.
 */
function reverseGlossary(synonyms: Readonly<Record<string, string>>): Map<string, string[]> {
  let reverse = reverseGlossaries.get(synonyms);
  if (reverse === undefined) {
    reverse = new Map();
    for (const [phrase, english] of Object.entries(synonyms)) {
      for (const term of tokenizeText(english)) reverse.set(term, [...(reverse.get(term) ?? []), phrase]);
    }
    reverseGlossaries.set(synonyms, reverse);
  }
  return reverse;
}

/**
 * The weighted query terms, with glossary expansions.
 *
 * @param query - the request text.
 * @param options - the glossary.
 * @returns term → weight.
 */
function queryTerms(query: string, options: ToolSearchOptions): Map<string, number> {
  const terms = new Map<string, number>();
  for (const term of tokenizeText(query)) terms.set(term, singleCjkCharacter.test(term) ? singleCharacterWeight : 1);
  const synonyms = options.synonyms === false ? undefined : (options.synonyms ?? defaultToolSynonyms);
  if (synonyms === undefined) return terms;
  const expand = (text: string): void => {
    for (const term of tokenizeText(text)) {
      if (!terms.has(term))
        terms.set(term, singleCjkCharacter.test(term) ? singleCharacterWeight * expansionWeight : expansionWeight);
    }
  };
  const lowered = query.normalize("NFKC").toLowerCase();
  const reverse = reverseGlossary(synonyms);
  const original = [...terms.keys()];
  for (const [phrase, english] of Object.entries(synonyms)) if (lowered.includes(phrase)) expand(english);
  for (const term of original) for (const phrase of reverse.get(term) ?? []) expand(phrase);
  return terms;
}

const indexes = new WeakMap<CompiledCatalog, ToolSearchIndex>();

/**
 * Returns the search index of a catalog, building it on first use. Each
 * posting stores the term's final BM25 weight for that tool, so a query only
 * adds numbers: selecting from thousands of tools takes well under a
 * millisecond once the index exists.
 *
 * @param catalog - the compiled catalog.
 * @returns the index.
 *
 * @example
 * ```ts
 * toolSearchIndex(compileCatalog(tools)).search("weather in Paris", {}, 6);
 * ```
 */
export function toolSearchIndex(catalog: CompiledCatalog): ToolSearchIndex {
  const cached = indexes.get(catalog);
  if (cached !== undefined) return cached;
  const tools = catalog.tools;
  // BM25F: each field's counts are normalized by that field's length against
  // its average, weighted, summed, and only then saturated. A tool with long
  // parameter descriptions is not penalized for them when its name matches,
  // as it is when all fields share one length.
  const fields = tools.map(documentFields);
  const averages = Array.from({ length: fieldCount }, (_, field) => {
    let total = 0;
    for (const bags of fields) for (const count of (bags[field] as Map<string, number>).values()) total += count;
    return total / Math.max(1, tools.length);
  });
  const collected = new Map<string, { documents: number[]; weights: number[] }>();
  fields.forEach((bags, document) => {
    const combined = new Map<string, number>();
    bags.forEach((bag, field) => {
      let length = 0;
      for (const count of bag.values()) length += count;
      const norm = (fieldWeights[field] ?? 0) / (1 - b + (b * length) / ((averages[field] ?? 0) || 1));
      if (norm > 0) for (const [term, count] of bag) combined.set(term, (combined.get(term) ?? 0) + count * norm);
    });
    for (const [term, frequency] of combined) {
      let posting = collected.get(term);
      if (posting === undefined) {
        posting = { documents: [], weights: [] };
        collected.set(term, posting);
      }
      posting.documents.push(document);
      posting.weights.push(frequency);
    }
  });
  const postings = new Map<string, { documents: Int32Array; weights: Float64Array }>();
  for (const [term, { documents, weights }] of collected) {
    const idf = Math.log(1 + (tools.length - documents.length + 0.5) / (documents.length + 0.5));
    const final = weights.map((frequency) => (idf * frequency * (k1 + 1)) / (frequency + k1));
    postings.set(term, { documents: Int32Array.from(documents), weights: Float64Array.from(final) });
  }
  const scores = new Float64Array(tools.length);
  const index: ToolSearchIndex = {
    size: tools.length,
    search(query, options = {}, limit = Number.POSITIVE_INFINITY) {
      const touched: number[] = [];
      for (const [term, weight] of queryTerms(query, options)) {
        const posting = postings.get(term);
        if (posting === undefined) continue;
        const { documents, weights } = posting;
        for (let at = 0; at < documents.length; at++) {
          const document = documents[at] ?? 0;
          if (scores[document] === 0) touched.push(document);
          scores[document] = (scores[document] ?? 0) + weight * (weights[at] ?? 0);
        }
      }
      const better = (a: number, b: number): boolean =>
        (scores[a] ?? 0) > (scores[b] ?? 0) || ((scores[a] ?? 0) === (scores[b] ?? 0) && a < b);
      let best: number[];
      if (limit < touched.length && limit < 64) {
        // Bounded insertion: cheaper than sorting every touched tool when only a few are wanted.
        best = [];
        for (const document of touched) {
          if (best.length === limit && !better(document, best[best.length - 1] ?? 0)) continue;
          let at = best.length === limit ? limit - 1 : best.length;
          if (best.length < limit) best.push(document);
          while (at > 0 && better(document, best[at - 1] ?? 0)) {
            best[at] = best[at - 1] ?? 0;
            at--;
          }
          best[at] = document;
        }
      } else {
        best = touched.sort((a, c) => (better(a, c) ? -1 : better(c, a) ? 1 : 0)).slice(0, limit);
      }
      const result = best.map((document) => ({ name: tools[document]?.name ?? "", score: scores[document] ?? 0 }));
      for (const document of touched) scores[document] = 0;
      return result;
    },
  };
  indexes.set(catalog, index);
  return index;
}
