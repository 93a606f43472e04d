/**
 * What the demo gives the Worker.
 *
 * @module
 */
import type { WorkerOptions } from "../worker-options.ts";
import { createDemoTools } from "./create-demo-tools.ts";
import { createGuideTools } from "./create-guide-tools.ts";
import { demoApprovalPolicy } from "./demo-approval-policy.ts";
import { selectDemoModel } from "./select-demo-model.ts";
import { tripGuidePlaybook } from "./trip-guide-playbook.ts";
import { tripGuideSkills } from "./trip-guide-skills.ts";

/**
 * The Worker's options for the demo, which `worker/index.ts` gives the
 * core Worker and its session and durable runs: the demo tools (with a
 * fresh note store per request or run), the offline demo model when the
 * environment configures no model, `kb_search` for `query_kb` steps, the
 * approval policy (`save_note` needs a person's approval), and the trip
 * guide of `POST /v1/guide`. The policy holds on every route: session and
 * durable runs ask a person; the runs answered in the request (`/v1/run`,
 * `/v1/chat`, `/v1/chat/completions`), where nobody can answer, deny the
 * step at once (`startRun`) and reply
 * without it, so no note is saved there.
 *
 * @example
 * ```ts
 * const worker = createWorker({ ...demoWorkerOptions, runtime: { maxConcurrency: 2 } });
 * ```
 */
export const demoWorkerOptions: WorkerOptions = {
  createTools: () => createDemoTools(),
  offlineModel: selectDemoModel,
  knowledgeBaseTool: "kb_search",
  approvalPolicy: demoApprovalPolicy,
  runtime: { policy: demoApprovalPolicy },
  guide: { playbook: tripGuidePlaybook, skills: tripGuideSkills, createTools: createGuideTools },
};
