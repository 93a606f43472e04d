/**
 * Reading and validating a JSON request body against a valibot schema.
 *
 * @module
 */
import * as v from "valibot";
import { findDeepValue } from "../../src/json.ts";
import { workerDefaults } from "../worker-defaults.ts";
import { HttpProblem } from "./http-problem.ts";

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
 * How the value a check refused reads in its error: as valibot shows it
 * (`42`, `"rm_rf"`, a length for a length check), cut at 60 characters;
 * nothing for a missing member, an unknown one (its message names it), a
 * value too short (an empty one says enough) or a custom check (its
 * message says what it found).
 *
 * @param issue - the issue.
 * @returns the value's text, or `undefined`.
 */
function describeReceived(issue: v.BaseIssue<unknown>): string | undefined {
  const { received } = issue;
  const own = issue.type === "check" || issue.type === "min_length";
  if (received === "undefined" || issue.expected === "never" || own) return undefined;
  const shown = received === "Object" ? "an object" : received === "Array" ? "an array" : received;
  return shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
}

/**
 * The detail of an issue: its message and the value it got; for a value
 * that matched no option of a union (a profile that is neither a string
 * nor a valid object), what was wrong inside the option it came closest to.
 *
 * @param issue - the issue.
 * @returns the detail.
 */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  // A union's issues hold their paths from the union: those with a path come from inside the object option.
  const inner = (issue.issues ?? []).filter((item) => (item.path?.length ?? 0) > 0);
  if (issue.received === "Object" && inner.length > 0)
    return `${issue.message}: ${inner.map(describeIssue).join("; ")}`;
  const received = describeReceived(issue);
  return received === undefined || issue.message.includes(received)
    ? issue.message
    : `${issue.message} (got ${received})`;
}

/**
 * Reads a request's JSON body (its size is already limited by the body
 * limit middleware): it must be `application/json`, valid UTF-8, valid
 * JSON, an object nested at most `workerDefaults.bodyMaxDepth` levels
 * deep, and match `schema`.
 *
 * Problems thrown (as {@link HttpProblem}): 415 `unsupported-media-type`
 * (another content type, or a compressed body: `Accept-Encoding: identity`),
 * 400 `invalid-json` (the parser's message), 400 `invalid-body` with one
 * `errors` entry per problem, each naming the field by JSON pointer and
 * the value it got.
 *
 * @param request - the request.
 * @param schema - the body's valibot schema.
 * @param example - a body to show when the JSON is not an object, e.g. `{"query":"…"}`.
 * @returns the validated body.
 * @throws HttpProblem for a body of the wrong type, invalid JSON or one the schema refuses.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(request, GuideBodySchema, '{"message":"…"}');
 * ```
 */
export async function readJsonBody<const S extends v.GenericSchema>(
  request: Request,
  schema: S,
  example: string,
): Promise<v.InferOutput<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/iu.test(type)) {
    throw new HttpProblem(
      415,
      `The body must be JSON sent as application/json, not ${type === "" ? "without a content type" : JSON.stringify(type)}`,
      {
        code: "unsupported-media-type",
        headers: { accept: "application/json" },
      },
    );
  }
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "") {
    throw new HttpProblem(
      415,
      `The body must be sent uncompressed, not with Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}`,
      { code: "unsupported-media-type", headers: { "accept-encoding": "identity" } },
    );
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : "the body is not valid UTF-8";
    throw new HttpProblem(400, `The body is not valid JSON: ${reason}`, { code: "invalid-json" });
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new HttpProblem(400, `The body must be a JSON object such as ${example}`, {
      code: "invalid-body",
      errors: [{ pointer: "#", detail: "the body must be a JSON object" }],
    });
  }
  const deepAt = findDeepValue(json, workerDefaults.bodyMaxDepth);
  if (deepAt !== undefined) {
    const deep = `#${deepAt}`;
    const detail = `the body nests deeper than ${workerDefaults.bodyMaxDepth} levels here`;
    throw new HttpProblem(400, `Invalid request body: ${deep.slice(2)}: ${detail}`, {
      code: "invalid-body",
      errors: [{ pointer: deep, detail }],
    });
  }
  const result = v.safeParse(schema, json);
  if (result.success) return result.output;
  const errors = result.issues.map((issue) => ({
    pointer: `#/${(issue.path ?? []).map((item) => pointerSegment(item.key)).join("/")}`,
    detail: describeIssue(issue),
  }));
  throw new HttpProblem(
    400,
    `Invalid request body: ${errors.map((error) => `${error.pointer.slice(2) || "body"}: ${error.detail}`).join("; ")}`,
    { code: "invalid-body", errors },
  );
}
