/**
 * Reading and validating the body of `/v1/plan` and `/v1/run`.
 *
 * @module
 */
import { readJsonBody, type ReadJsonBodyResult } from "./read-json-body.ts";
import { createRequestBodySchema, type RequestBody } from "./request-body-schema.ts";

/** The outcome of {@link readRequestBody}: the body, or the problem response to send. */
export type ReadBodyResult = ReadJsonBodyResult<RequestBody>;

/**
 * Reads the body of `/v1/plan` and `/v1/run` with {@link readJsonBody}
 * (size limit, media type, JSON, then {@link createRequestBodySchema}).
 *
 * @param request - the request.
 * @param limit - the most bytes accepted.
 * @param toolNames - the tools the body may name.
 * @returns the validated body, or the problem response.
 *
 * @example
 * ```ts
 * const read = await readRequestBody(request, 16_384, registry.list().map((tool) => tool.name));
 * if (!read.ok) return read.response;
 * ```
 */
export function readRequestBody(request: Request, limit: number, toolNames: readonly string[]): Promise<ReadBodyResult> {
  return readJsonBody(request, limit, createRequestBodySchema(toolNames), '{"query":"…"}');
}
