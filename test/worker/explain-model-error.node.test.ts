import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromLanguageModel } from "../../src/ai.ts";
import { PlankitError } from "../../src/index.ts";
import { explainModelError, withExplainedErrors } from "../../worker/explain-model-error.ts";
import { errorBody } from "../ai/openai-stub.ts";

// The Worker's model failures with the real @ai-sdk/openai provider over
// HTTP: a local server answering with an error status, and a port nothing
// listens on. The failures name the host, the setting and the status. The
// model is built as `selectModel` builds it (its own workerd suite runs it
// through the Worker).

/** The settings `selectModel` reads. */
interface ModelEnv {
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  PLANKIT_MODEL?: string;
}

const key = "sk-test-secret-key-0123456789";
let server: Server;
let base = "";
let host = "";
/** A port that refuses connections: a server's, closed before the tests. */
let closedPort = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    const status = Number(/\/status\/(\d+)\//.exec(request.url ?? "")?.[1] ?? 500);
    request.resume();
    request.on("end", () => {
      response.writeHead(status, { "content-type": "application/json" }).end(errorBody(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  base = `http://${host}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(env: ModelEnv): Promise<PlankitError> {
  const apiKey = env.OPENAI_API_KEY ?? "";
  const baseURL = env.OPENAI_BASE_URL ?? "";
  const modelId = env.PLANKIT_MODEL ?? "gpt-4o-mini";
  const openai = createOpenAI({
    apiKey: apiKey === "" ? "not-needed" : apiKey,
    ...(baseURL === "" ? {} : { baseURL }),
  });
  const model = withExplainedErrors(fromLanguageModel(openai.chat(modelId), { temperature: 0, maxRetries: 1 }), {
    provider: baseURL === "" ? "openai" : "openai-compatible",
    baseURL,
    hasKey: apiKey !== "",
    modelId,
  });
  try {
    for await (const _part of model.stream({ purpose: "plan", prompt: "hi" })) {
      // Drained: the call fails before any part.
    }
  } catch (error) {
    if (PlankitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the model did not fail");
}

describe("the Worker's model failures", () => {
  it("401 names the host, OPENAI_BASE_URL and OPENAI_API_KEY, never the key", async () => {
    const error = await failure({ OPENAI_API_KEY: key, OPENAI_BASE_URL: `${base}/status/401/v1` });
    expect(error.code).toBe("model-error");
    expect(error.message).toContain(`The model server at ${host}`);
    expect(error.message).toContain(`OPENAI_BASE_URL = ${base}/status/401/v1`);
    expect(error.message).toContain("HTTP 401");
    expect(error.message).toContain("Check OPENAI_API_KEY (OPENAI_API_KEY is set)");
    expect(error.message).toContain("stub failure 401");
    expect(error.message).not.toContain(key);
  });

  it("403 points at the key too, and says when it is unset", async () => {
    const error = await failure({ OPENAI_BASE_URL: `${base}/status/403/v1` });
    expect(error.message).toContain("HTTP 403");
    expect(error.message).toContain("OPENAI_API_KEY is unset");
  });

  it("404 names the model (PLANKIT_MODEL) and the base URL's path", async () => {
    const error = await failure({
      OPENAI_API_KEY: key,
      OPENAI_BASE_URL: `${base}/status/404/v1`,
      PLANKIT_MODEL: "no-such-model",
    });
    expect(error.message).toContain(`The model server at ${host}`);
    expect(error.message).toContain('HTTP 404 for model "no-such-model"');
    expect(error.message).toContain("PLANKIT_MODEL");
    expect(error.message).toContain("base URL's path");
    expect(error.message).not.toContain(key);
  });

  it("429 says rate limit or quota", async () => {
    const error = await failure({ OPENAI_API_KEY: key, OPENAI_BASE_URL: `${base}/status/429/v1` });
    expect(error.message).toContain(`The model server at ${host}`);
    expect(error.message).toContain("HTTP 429 (rate limit or quota)");
    expect(error.message).not.toContain(key);
  });

  it("an unreachable port names the host and OPENAI_BASE_URL, and the core message keeps the host", async () => {
    const error = await failure({ OPENAI_API_KEY: key, OPENAI_BASE_URL: `http://127.0.0.1:${closedPort}/v1` });
    expect(error.message).toContain(`The model server at 127.0.0.1:${closedPort}`);
    expect(error.message).toContain(`OPENAI_BASE_URL = http://127.0.0.1:${closedPort}/v1`);
    expect(error.message).toContain("could not be reached");
    expect(error.message).not.toContain(key);
    // The cause is the core's message: generic, with the host.
    expect(PlankitError.isInstance(error.cause) && error.cause.message).toContain(
      `The language model failed (no HTTP answer from 127.0.0.1:${closedPort})`,
    );
  });

  it("credentials and a query in OPENAI_BASE_URL stay out of the message", async () => {
    const error = await failure({ OPENAI_BASE_URL: `http://user:pass@127.0.0.1:${closedPort}/v1?token=abc` });
    expect(error.message).toContain(`OPENAI_BASE_URL = http://127.0.0.1:${closedPort}/v1)`);
    expect(error.message).not.toContain("pass");
    expect(error.message).not.toContain("abc");
  });
});

describe("explainModelError", () => {
  it("names the default base URL when OPENAI_BASE_URL is unset", () => {
    const message = explainModelError(new TypeError("Network connection lost."), {
      provider: "openai",
      baseURL: "",
      hasKey: true,
      modelId: "gpt-4o-mini",
    });
    expect(message).toBe(
      "The model server at api.openai.com (the default https://api.openai.com/v1, as OPENAI_BASE_URL is unset) could not be reached: Network connection lost. Check that the Worker can reach api.openai.com, or set OPENAI_BASE_URL to the server you mean.",
    );
  });

  it("names the Workers AI binding and PLANKIT_MODEL", () => {
    const message = explainModelError(new Error("5007: No such model"), {
      provider: "workers-ai",
      modelId: "@cf/nope",
    });
    expect(message).toContain(
      'The Workers AI binding AI failed for model "@cf/nope" (PLANKIT_MODEL): 5007: No such model',
    );
  });
});
