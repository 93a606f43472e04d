import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createWorker } from "../../worker/create-worker.ts";
import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import type { WorkerEnv } from "../../worker/worker-env.ts";

const origin = "https://plankit.test";
const worker = createWorker(demoWorkerOptions);

describe("a PLANKIT_TOKEN with characters outside the base64 alphabet", () => {
  // What `wrangler secret put PLANKIT_TOKEN` takes as readily as any other: a pass phrase.
  const token = "open sesame: 7 doors! #4";
  const env: WorkerEnv = { PLANKIT_DEMO_TOKENS_PER_SECOND: "Infinity", PLANKIT_TOKEN: token };
  const models = (authorization?: string): Promise<Response> =>
    worker.fetch(
      new Request(`${origin}/v1/models`, { headers: authorization === undefined ? {} : { authorization } }),
      env,
    );

  it("lets in a client that sends it, and still tells a wrong token from a missing one", async () => {
    expect((await models(`Bearer ${token}`)).status).toBe(200);
    expect((await models(`bearer ${token}`)).status).toBe(200);

    const wrong = await models("Bearer open sesame");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="plankit", error="invalid_token"');
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("invalid_token");

    for (const header of [undefined, `Basic ${token}`, "Bearer ", "Bearer"]) {
      const missing = await models(header);
      expect(missing.status).toBe(401);
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="plankit"');
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("missing_token");
    }
  });

  it("works as the official openai client's API key", async () => {
    const client = new OpenAI({
      baseURL: `${origin}/v1`,
      apiKey: token,
      fetch: (url, init) => worker.fetch(new Request(String(url), init), env),
      maxRetries: 0,
    });
    const listed: string[] = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toEqual(["plankit"]);
  });
});
