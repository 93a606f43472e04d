/**
 * Bearer token checks.
 *
 * @module
 */

/**
 * Hashes a string with SHA-256.
 *
 * @param text - the text.
 * @returns the digest bytes.
 */
async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/**
 * Checks `Authorization: Bearer <token>` against the expected token. Both
 * sides are hashed and the digests compared in full, so the time taken says
 * nothing about how much of the token was right.
 *
 * @param header - the `Authorization` header, or `null`.
 * @param expected - the token.
 * @returns `"missing"` without a bearer token, `"invalid"` for a wrong one, `"ok"`.
 *
 * @example
 * ```ts
 * if ((await checkBearerToken(request.headers.get("authorization"), env.PLANKIT_TOKEN)) !== "ok") return unauthorized();
 * ```
 */
export async function checkBearerToken(header: string | null, expected: string): Promise<"ok" | "missing" | "invalid"> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/iu.exec(header ?? "");
  if (match?.[1] === undefined) return "missing";
  const [given, wanted] = await Promise.all([digest(match[1]), digest(expected)]);
  let difference = 0;
  for (let index = 0; index < wanted.length; index++) difference |= (given[index] ?? 0) ^ (wanted[index] ?? 0);
  return difference === 0 ? "ok" : "invalid";
}
