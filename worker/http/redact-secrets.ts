/**
 * Keeping secrets out of responses.
 *
 * @module
 */

/**
 * Builds a function that replaces every occurrence of the given secrets in a
 * text (as written, and as escaped inside a JSON string) with `[redacted]`.
 * Secrets shorter than 8 characters are ignored: redacting them would mangle
 * ordinary text without protecting anything.
 *
 * @param secrets - the secret values; `undefined` entries are skipped.
 * @returns the redacting function.
 *
 * @example
 * ```ts
 * const redact = createRedactor([env.OPENAI_API_KEY, env.PLANKIT_TOKEN]);
 * controller.enqueue(redact(message));
 * ```
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const needles = [
    ...new Set(secrets.flatMap((secret) => (secret === undefined || secret.length < 8 ? [] : [secret, JSON.stringify(secret).slice(1, -1)]))),
  ].sort((a, b) => b.length - a.length);
  if (needles.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const needle of needles) result = result.split(needle).join("[redacted]");
    return result;
  };
}
