/**
 * plankit/tools — tool catalogs: reading the shapes data sets and
 * protocols write, compiling schemas, adapters for MCP and AI SDK tools, and
 * picking the tools a request needs out of a large catalog.
 *
 * @module
 */

export { type CatalogSource, type CompiledCatalog, compileCatalog } from "./tools/compile-catalog.ts";
export { createEmbeddingRetriever, type EmbeddingRetrieverOptions } from "./tools/create-embedding-retriever.ts";
export { defaultToolSynonyms } from "./tools/default-tool-synonyms.ts";
export type { ArgumentProblem, ReferenceLocations } from "./tools/explain-schema-errors.ts";
export { findSchemaProblem } from "./tools/find-schema-problem.ts";
export {
  type AiSdkToolExecuteOptions,
  type AiSdkToolLike,
  type FromAiSdkToolsOptions,
  fromAiSdkTools,
} from "./tools/from-ai-sdk-tools.ts";
export { type FromMcpToolsOptions, fromMcpTools, type McpToolCaller } from "./tools/from-mcp-tools.ts";
export { type FuseRankingsOptions, fuseRankings } from "./tools/fuse-rankings.ts";
export type { InferJsonSchema } from "./tools/infer-json-schema.ts";
export type {
  CheckJsonSchema,
  JsonSchemaDefinition,
  JsonSchemaObject,
  JsonSchemaTypeName,
} from "./tools/json-schema-definition.ts";
export { type DataSetCatalogInput, normalizeCatalog } from "./tools/normalize-catalog.ts";
export { normalizeSchemaTypes } from "./tools/normalize-schema-types.ts";
export { rankTools } from "./tools/rank-tools.ts";
export type { ToolCatalogInput } from "./tools/read-catalog.ts";
export { readToolSchema } from "./tools/read-tool-schema.ts";
export {
  type AsyncToolRetriever,
  type SelectToolsOptions,
  selectTools,
  type ToolRetriever,
} from "./tools/select-tools.ts";
export type {
  StandardJsonSchemaOptions,
  StandardJsonSchemaTarget,
  StandardJsonSchemaV1,
  StandardPathSegment,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaTypes,
  StandardSchemaV1,
} from "./tools/standard-schema.ts";
export {
  type JsonSchemaConverter,
  type ToToolJsonSchemaOptions,
  toToolJsonSchema,
} from "./tools/to-tool-json-schema.ts";
export { tokenizeText } from "./tools/tokenize-text.ts";
export type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tools/tool-descriptor.ts";
export type { ToolCallOptions, ToolExecuteOptions, ToolExecuteResult } from "./tools/tool-registry.ts";
export type { InferToolArguments, InferToolResult, ToolSchema } from "./tools/tool-schema.ts";
export type { ToolScore, ToolSearchOptions } from "./tools/tool-search-index.ts";
