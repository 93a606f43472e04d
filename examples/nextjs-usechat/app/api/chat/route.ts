import { fromUIMessages, toUIMessageStreamResponse } from "plankit/ai";
import { runtime } from "../../../lib/runtime";

export async function POST(request: Request): Promise<Response> {
  const { messages } = await request.json(); // what useChat sends
  const run = runtime.run(fromUIMessages(messages), { signal: request.signal });
  // sendEvents: every runtime event also goes out as a transient `data-plankit` chunk, for the page's <plankit-run>.
  return toUIMessageStreamResponse(run, { sendEvents: true });
}
