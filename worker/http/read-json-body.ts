/**
 * Reading and validating a JSON request body against a valibot schema.
 *
 * @module
 */
import * as v from "valibot";
import { problemResponse } from "./problem-response.ts";

/** The outcome of {@link readJsonBody}: the parsed body, or the problem response to send. */
export type ReadJsonBodyResult<T> = { ok: true; body: T } | { ok: false; response: Response };

/**
 * Escapes a key for a JSON pointer (RFC 6901).
 *
 * @param key - an object key or array index.
 * @returns the escaped segment.
 */
function pointerSegment(key: unknown): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Reads a request's JSON body, refusing more than `limit` bytes without
 * buffering them: the `Content-Length` is checked first, then the bytes are
 * counted as they arrive and the read stops at the limit. The body must be
 * `application/json`, valid UTF-8, valid JSON and an object matching `schema`.
 *
 * Problems (RFC 9457): 415 `unsupported-media-type`, 413 `body-too-large`,
 * 400 `invalid-json` (the parser's message), 400 `invalid-body` with one
 * `errors` entry per problem, each naming the field by JSON pointer.
 *
 * @param request - the request.
 * @param limit - the most bytes accepted.
 * @param schema - the body's valibot schema.
 * @param example - a body to show when the JSON is not an object, e.g. `{"query":"…"}`.
 * @returns the validated body, or the problem response.
 *
 * @example
 * ```ts
 * const read = await readJsonBody(request, 16_384, GuideBodySchema, '{"message":"…"}');
 * if (!read.ok) return read.response;
 * ```
 */
export async function readJsonBody<const S extends v.GenericSchema>(request: Request, limit: number, schema: S, example: string): Promise<ReadJsonBodyResult<v.InferOutput<S>>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/iu.test(type)) {
    return {
      ok: false,
      response: problemResponse(415, `The body must be JSON sent as application/json, not ${type === "" ? "without a content type" : JSON.stringify(type)}`, { code: "unsupported-media-type" }, { accept: "application/json" }),
    };
  }
  const tooLarge = (size: string): ReadJsonBodyResult<never> => ({
    ok: false,
    response: problemResponse(413, `The body is ${size} bytes; the limit is ${limit}`, { code: "body-too-large", limit }),
  });
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return tooLarge(String(declared));

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel("body too large").catch(() => {});
        return tooLarge(`more than ${limit}`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : "the body is not valid UTF-8";
    return { ok: false, response: problemResponse(400, `The body is not valid JSON: ${reason}`, { code: "invalid-json" }) };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      ok: false,
      response: problemResponse(400, `The body must be a JSON object such as ${example}`, { code: "invalid-body", errors: [{ pointer: "#", detail: "the body must be a JSON object" }] }),
    };
  }
  const result = v.safeParse(schema, json);
  if (result.success) return { ok: true, body: result.output };
  const errors = result.issues.map((issue) => ({
    pointer: `#/${(issue.path ?? []).map((item) => pointerSegment(item.key)).join("/")}`,
    detail: issue.message,
  }));
  return {
    ok: false,
    response: problemResponse(400, `Invalid request body: ${errors.map((error) => `${error.pointer.slice(2) || "body"}: ${error.detail}`).join("; ")}`, { code: "invalid-body", errors }),
  };
}
