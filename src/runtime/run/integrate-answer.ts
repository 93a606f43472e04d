/**
 * The model's answer from the results, streamed as it is written.
 *
 * @module
 */
import type { PlanModel, PlanModelRequest } from "../../model/plan-model.ts";
import { readModelStream } from "../../model/read-model-stream.ts";

/**
 * Streams the model's integrated answer through `write`, leaving out
 * leading and trailing white space, and returns it. A call that fails
 * before writing anything gives `undefined` (the caller falls back to the
 * template); one that breaks off after it began keeps what was written and
 * adds `fallback()` after it, since streamed text cannot be taken back.
 *
 * @param model - the run's model (counted, budgeted, bounded).
 * @param request - the integration request.
 * @param write - receives each piece.
 * @param isEnded - whether the run ended meanwhile.
 * @param fallback - the text that follows a broken-off answer.
 * @returns the answer, or `undefined`.
 *
 * @example
 * ```ts
 * const text = await integrateAnswer(model, { purpose: "integrate", prompt, signal }, emitDelta, () => false, () => template);
 * ```
 */
export async function integrateAnswer(
  model: PlanModel,
  request: PlanModelRequest,
  write: (delta: string) => void,
  isEnded: () => boolean,
  fallback: () => string,
): Promise<string | undefined> {
  let written = "";
  let held = "";
  const call = readModelStream(model, request, { what: "Integration" });
  try {
    for (let next = await call.next(); ; next = await call.next()) {
      if (isEnded()) return undefined;
      if (next.done === true) {
        if (next.value === "error" && written === "") return undefined;
        break;
      }
      if (next.value.type !== "text") continue;
      const text = held + next.value.text;
      const trimmed = written === "" ? text.trimStart() : text;
      const body = trimmed.trimEnd();
      held = trimmed.slice(body.length);
      if (body !== "") {
        written += body;
        write(body);
      }
    }
  } catch {
    if (written === "") return undefined;
    const rest = `\n\n${fallback()}`;
    write(rest);
    return written + rest;
  } finally {
    // Leaving early (the run ended) closes the model's stream.
    await call.return("missing");
  }
  return written === "" ? undefined : written;
}
