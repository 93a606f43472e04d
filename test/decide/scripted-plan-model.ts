import type { PlanModel, PlanModelRequest } from "../../src/model/plan-model.ts";

/** A model that answers each call with the next scripted text, streamed in small chunks. */
export function createTestModel(answers: readonly string[]): { model: PlanModel; requests: PlanModelRequest[] } {
  const requests: PlanModelRequest[] = [];
  const model: PlanModel = {
    async *stream(request) {
      requests.push(request);
      const answer = answers[requests.length - 1];
      if (answer === undefined) throw new Error(`the script has no answer for call ${requests.length}`);
      for (let index = 0; index < answer.length; index += 7)
        yield { type: "text", text: answer.slice(index, index + 7) };
      yield { type: "finish", reason: "stop" };
    },
  };
  return { model, requests };
}
