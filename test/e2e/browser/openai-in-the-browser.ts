/**
 * Bundled for Chromium by the real-client e2e suite: the official `openai`
 * client in a page of another origin, calling the Worker.
 *
 * @module
 */
import OpenAI from "openai";

/** What the page saw, for the test to check. */
export interface BrowserReport {
  model: string;
  content: string;
  streamed: string;
  chunks: number;
  runId: string | null;
  error: { status: number | undefined; type: string | undefined; param: string | null | undefined; message: string };
}

/**
 * Calls the Worker with the official client: retrieves the model, asks a
 * question whole and streamed, and has a request refused.
 *
 * @param baseURL - the Worker's `/v1` URL.
 * @param apiKey - the Worker's token.
 * @returns what it saw.
 */
async function callPlankit(baseURL: string, apiKey: string): Promise<BrowserReport> {
  const client = new OpenAI({ baseURL, apiKey, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const model = await client.models.retrieve("plankit");
  const { data: completion, response } = await client.chat.completions
    .create({ model: "plankit", messages: [{ role: "user", content: "What is 21*2+5?" }] })
    .withResponse();
  let streamed = "";
  let chunks = 0;
  for await (const chunk of await client.chat.completions.create({
    model: "plankit",
    messages: [{ role: "user", content: "What is 21*2+5?" }],
    stream: true,
  })) {
    chunks++;
    streamed += chunk.choices[0]?.delta.content ?? "";
  }
  const refused = await client.chat.completions
    .create({
      model: "plankit",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", function: { name: "f", parameters: {} } }],
    })
    .then(
      () => {
        throw new Error("the request with tools was not refused");
      },
      (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
    );
  return {
    model: model.id,
    content: completion.choices[0]?.message.content ?? "",
    streamed,
    chunks,
    runId: response.headers.get("x-plankit-run-id"),
    error: { status: refused.status, type: refused.type, param: refused.param, message: refused.message },
  };
}

(globalThis as { callPlankit?: typeof callPlankit }).callPlankit = callPlankit;
