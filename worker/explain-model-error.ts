/**
 * Model failures that say what to fix: the host the Worker tried, the
 * setting that chose it, and what to check.
 *
 * @module
 */
import { APICallError, RetryError } from "ai";
import { PlankitError } from "../src/index.ts";
import type { PlanModel, PlanModelPart, PlanModelRequest } from "../src/model.ts";

/** The base URL `@ai-sdk/openai` calls when `OPENAI_BASE_URL` is unset. */
const defaultOpenAiBaseUrl = "https://api.openai.com/v1";

/** How the environment chose the model, for the messages of its failures. */
export type ModelChoice =
  | {
      /** `@ai-sdk/openai`: OpenAI, or the server `OPENAI_BASE_URL` names. */
      provider: "openai" | "openai-compatible";
      /** `OPENAI_BASE_URL`, or `""` when unset (the default {@link defaultOpenAiBaseUrl}). */
      baseURL: string;
      /** Whether `OPENAI_API_KEY` is set. */
      hasKey: boolean;
      /** The model id (`PLANKIT_MODEL`, or the default). */
      modelId: string;
    }
  | {
      /** The Workers AI binding `AI`. */
      provider: "workers-ai";
      /** The model id (`PLANKIT_MODEL`, or the default). */
      modelId: string;
    };

/**
 * A URL for a message: scheme, host and path, without credentials or query.
 *
 * @param url - the URL.
 * @returns the URL's printable part (the text as it is when it does not parse).
 */
function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/$/, "")}`;
  } catch {
    return url;
  }
}

/**
 * The host (with its port) of a URL.
 *
 * @param url - the URL.
 * @returns the host, or `undefined` when the URL does not parse.
 */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error underneath plankit's and the AI SDK's wrappers: a
 * `model-error`'s cause, a retry's last attempt.
 *
 * @param error - what the model threw.
 * @returns the innermost error.
 */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    if (PlankitError.isInstance(current) && current.cause !== undefined) current = current.cause;
    else if (RetryError.isInstance(current) && current.lastError !== undefined) current = current.lastError;
    else break;
  }
  return current;
}

/**
 * The provider's own words: the `error.message` of a JSON error body, else
 * the error's message. URLs in it lose their credentials and query.
 *
 * @param error - the innermost error.
 * @returns one line, at most 200 characters.
 */
function providerDetail(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  if (APICallError.isInstance(error) && error.responseBody !== undefined) {
    try {
      const body = JSON.parse(error.responseBody) as { error?: { message?: unknown } | string };
      const message = typeof body.error === "string" ? body.error : body.error?.message;
      if (typeof message === "string" && message !== "") text = message;
    } catch {
      // Not JSON: the error's message stands.
    }
  }
  const line = text
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, printableUrl)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.+$/, "");
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Explains a failed model call: names the host the Worker tried, the setting
 * that chose it (`OPENAI_BASE_URL`, the default `https://api.openai.com/v1`
 * when it is unset, or the Workers AI binding `AI`) and what to check — the
 * server's reachability when it gave no HTTP answer, `OPENAI_API_KEY` for
 * 401/403, `PLANKIT_MODEL` and the base URL's path for 404, the rate limit
 * or quota for 429. The key is never part of the message (the Worker also
 * redacts every response).
 *
 * @param error - what the model threw (a `model-error`, an AI SDK
 *   `APICallError` or `RetryError`, a fetch error).
 * @param choice - how the environment chose the model.
 * @returns the message.
 *
 * @example
 * ```ts
 * explainModelError(error, { provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", hasKey: false, modelId: "m" });
 * // → "The model server at 127.0.0.1:9 (OPENAI_BASE_URL = http://127.0.0.1:9/v1) could not be reached: …"
 * ```
 */
export function explainModelError(error: unknown, choice: ModelChoice): string {
  const cause = innermost(error);
  const detail = providerDetail(cause);
  if (choice.provider === "workers-ai") {
    return (
      `The Workers AI binding AI failed for model "${choice.modelId}" (PLANKIT_MODEL): ${detail}. ` +
      "Check that PLANKIT_MODEL names a Workers AI text-generation model (an @cf/… id) and that wrangler.toml binds [ai] as AI."
    );
  }
  const url = choice.baseURL === "" ? defaultOpenAiBaseUrl : choice.baseURL;
  const setting =
    choice.baseURL === ""
      ? `the default ${defaultOpenAiBaseUrl}, as OPENAI_BASE_URL is unset`
      : `OPENAI_BASE_URL = ${printableUrl(url)}`;
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  const host = (APICallError.isInstance(cause) ? hostOf(cause.url) : undefined) ?? hostOf(url) ?? url;
  const server = `The model server at ${host} (${setting})`;
  if (status === undefined) {
    const check =
      choice.baseURL === ""
        ? `Check that the Worker can reach ${host}, or set OPENAI_BASE_URL to the server you mean.`
        : "Check that OPENAI_BASE_URL names a server that is running and reachable from the Worker (scheme, host and port).";
    return `${server} could not be reached: ${detail}. ${check}`;
  }
  if (status === 401 || status === 403) {
    const key = choice.hasKey ? "OPENAI_API_KEY is set" : "OPENAI_API_KEY is unset";
    return (
      `${server} refused the request with HTTP ${status}: ${detail}. ` +
      `Check OPENAI_API_KEY (${key}): it must be a key this server accepts, with access to model "${choice.modelId}".`
    );
  }
  if (status === 404) {
    return (
      `${server} answered HTTP 404 for model "${choice.modelId}": ${detail}. ` +
      `Check that PLANKIT_MODEL names a model this server serves, and that the base URL's path is the API's (often ending in /v1; requests go to <base URL>/chat/completions).`
    );
  }
  if (status === 429) {
    return (
      `${server} answered HTTP 429 (rate limit or quota): ${detail}. ` +
      `Wait and retry, or check the rate limits, quota and billing of the account behind OPENAI_API_KEY.`
    );
  }
  return `${server} answered HTTP ${status} for model "${choice.modelId}" (PLANKIT_MODEL): ${detail}.`;
}

/**
 * Wraps a model so its failures carry {@link explainModelError}'s message
 * (as `PlankitError` `model-error`, the original as the cause); aborts and
 * timeouts pass unchanged.
 *
 * @param model - the model.
 * @param choice - how the environment chose it.
 * @returns the model.
 *
 * @example
 * ```ts
 * const model = withExplainedErrors(fromLanguageModel(openai.chat(modelId)), { provider: "openai", baseURL: "", hasKey: true, modelId });
 * ```
 */
export function withExplainedErrors(model: PlanModel, choice: ModelChoice): PlanModel {
  return {
    async *stream(request: PlanModelRequest): AsyncGenerator<PlanModelPart> {
      try {
        yield* model.stream(request);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        if (PlankitError.isInstance(error) && error.code !== "model-error") throw error;
        throw new PlankitError("model-error", explainModelError(error, choice), { cause: error });
      }
    },
  };
}
