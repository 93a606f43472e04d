import { fromUIMessages, toUIMessageStreamResponse } from "plankit/ai";
import { runtime } from "../../../lib/runtime";

export async function POST(request: Request): Promise<Response> {
  const { messages } = await request.json(); // what useChat sends
  return toUIMessageStreamResponse(runtime.run(fromUIMessages(messages), { signal: request.signal }));
}
