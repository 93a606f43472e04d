/**
 * An embedding-based retriever to fuse with the lexical ranking.
 *
 * @module
 */
import type { AsyncToolRetriever } from "./select-tools.ts";
import type { ToolDescriptor } from "./tool-descriptor.ts";
import type { ToolScore } from "./tool-search-index.ts";

/** Options of {@link createEmbeddingRetriever}. */
export interface EmbeddingRetrieverOptions {
  /**
   * Embeds texts (one vector per text, same order), e.g. with the AI SDK's
   * `embedMany` or any embeddings endpoint.
   *
   * @param texts - the texts.
   * @returns their vectors.
   */
  embed(texts: string[]): PromiseLike<readonly (readonly number[])[]>;
  /**
   * How many tools to return per query.
   *
   * @defaultValue `20`
   */
  topK?: number;
  /**
   * The text embedded for a tool.
   *
   * @defaultValue name, description and parameter names
   */
  describe?: (tool: ToolDescriptor) => string;
}

/**
 * The default text of a tool: its name, description and parameter names.
 *
 * @param tool - the descriptor.
 * @returns the text.
 */
function defaultText(tool: ToolDescriptor): string {
  const properties = tool.inputSchema["properties"];
  const parameters = typeof properties === "object" && properties !== null ? Object.keys(properties).join(", ") : "";
  return `${tool.name}: ${tool.description}${parameters === "" ? "" : ` (parameters: ${parameters})`}`;
}

/**
 * The cosine similarity of two vectors.
 *
 * @param a - one vector.
 * @param b - another, of the same length.
 * @returns the similarity in [-1, 1] (0 for a zero vector).
 */
function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * Creates a retriever for `selectTools` that ranks tools by the cosine
 * similarity of their embedding to the query's. Tool embeddings are computed
 * once per catalog (on the first query) and cached; each query embeds only
 * the query text.
 *
 * @param options - the embedding function, `topK`, the tool text.
 * @returns the retriever.
 *
 * @example
 * ```ts
 * const retriever = createEmbeddingRetriever({
 *   embed: async (texts) => (await embedMany({ model, values: texts })).embeddings,
 * });
 * const tools = await selectTools("订一张去东京的机票", catalog, { retriever });
 * ```
 */
export function createEmbeddingRetriever(options: EmbeddingRetrieverOptions): AsyncToolRetriever {
  const cache = new WeakMap<readonly ToolDescriptor[], Promise<readonly (readonly number[])[]>>();
  const topK = options.topK ?? 20;
  const describe = options.describe ?? defaultText;
  return async (query, tools): Promise<ToolScore[]> => {
    let vectors = cache.get(tools);
    if (vectors === undefined) {
      vectors = Promise.resolve(options.embed(tools.map(describe)));
      cache.set(tools, vectors);
      vectors.catch(() => cache.delete(tools));
    }
    const [embeddings, [queryVector]] = await Promise.all([vectors, options.embed([query])]);
    if (queryVector === undefined) return [];
    return tools
      .map((tool, index) => ({ name: tool.name, score: cosine(queryVector, embeddings[index] ?? []), index }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, topK)
      .map(({ name, score }) => ({ name, score }));
  };
}
