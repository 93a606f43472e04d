/**
 * plankit/json — the streaming JSON parser: strict (byte for byte
 * `JSON.parse`) or lenient (the repairs model output needs), each element
 * handed out the moment it completes.
 *
 * @module
 */
export {
  createJsonStreamParser,
  type JsonRepair,
  type JsonRepairKind,
  type JsonStreamParser,
  type JsonStreamParserOptions,
  type PartialString,
} from "./json/create-json-stream-parser.ts";
export { findDeepValue } from "./json/find-deep-value.ts";
export { JsonElementStream } from "./json/json-element-stream.ts";
export { JsonStreamError, type JsonStreamErrorCode } from "./json/json-stream-error.ts";
export { parseJsonStream, type TextSource } from "./json/parse-json-stream.ts";
export { canonicalJson } from "./shared/canonical-json.ts";
