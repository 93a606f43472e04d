/**
 * plankit/tools — tool catalogs: reading the shapes data sets and
 * protocols write, compiling schemas, adapters for MCP and AI SDK tools, and
 * picking the tools a request needs out of a large catalog.
 *
 * @module
 */
export type { JsonSchema, RecordTool, ToolAnnotations, ToolDescriptor } from "./tools/tool-descriptor.ts";
export {
  ToolRegistry,
  type ToolCallOptions,
  type ToolDefinition,
  type ToolExecuteOptions,
  type ToolExecuteResult,
  type ToolRegistryOptions,
} from "./tools/tool-registry.ts";
export { defineTool } from "./tools/define-tool.ts";
export type { InferToolArguments, InferToolResult, ToolSchema } from "./tools/tool-schema.ts";
export { normalizeCatalog, type DataSetCatalogInput } from "./tools/normalize-catalog.ts";
export type { ToolCatalogInput } from "./tools/read-catalog.ts";
export { readToolSchema } from "./tools/read-tool-schema.ts";
export { findSchemaProblem } from "./tools/find-schema-problem.ts";
export { normalizeSchemaTypes } from "./tools/normalize-schema-types.ts";
export { compileCatalog, type CatalogSource, type CompiledCatalog } from "./tools/compile-catalog.ts";
export type { ArgumentProblem, ReferenceLocations } from "./tools/explain-schema-errors.ts";
export { toToolJsonSchema, type JsonSchemaConverter, type ToToolJsonSchemaOptions } from "./tools/to-tool-json-schema.ts";
export { fromMcpTools, type FromMcpToolsOptions, type McpToolCaller } from "./tools/from-mcp-tools.ts";
export type { InferJsonSchema } from "./tools/infer-json-schema.ts";
export type { CheckJsonSchema, JsonSchemaDefinition, JsonSchemaObject, JsonSchemaTypeName } from "./tools/json-schema-definition.ts";
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
export { fromAiSdkTools, type AiSdkToolExecuteOptions, type AiSdkToolLike, type FromAiSdkToolsOptions } from "./tools/from-ai-sdk-tools.ts";
export { tokenizeText } from "./tools/tokenize-text.ts";
export { defaultToolSynonyms } from "./tools/default-tool-synonyms.ts";
export type { ToolScore, ToolSearchOptions } from "./tools/tool-search-index.ts";
export { rankTools } from "./tools/rank-tools.ts";
export { fuseRankings, type FuseRankingsOptions } from "./tools/fuse-rankings.ts";
export { selectTools, type AsyncToolRetriever, type SelectToolsOptions, type ToolRetriever } from "./tools/select-tools.ts";
export { createEmbeddingRetriever, type EmbeddingRetrieverOptions } from "./tools/create-embedding-retriever.ts";
