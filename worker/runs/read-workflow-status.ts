/**
 * Asking the engine how a durable run's Workflow instance is doing.
 *
 * @module
 */
import { disposeStub } from "./dispose-stub.ts";
import type { DurableRunParams } from "./durable-run-params.ts";

/**
 * The status of a durable run's Workflow instance.
 *
 * @param workflow - the Workflow binding, if the Worker has one.
 * @param runId - the run (the instance id).
 * @returns the status and error, `missing` when there is no such instance, `unknown` when it could not be asked.
 */
export async function readWorkflowStatus(
  workflow: Workflow<DurableRunParams> | undefined,
  runId: string,
): Promise<{ status: string; error?: string }> {
  if (workflow === undefined) return { status: "unknown" };
  let instance: WorkflowInstance;
  try {
    instance = await workflow.get(runId);
  } catch {
    return { status: "missing" };
  }
  try {
    const status = await instance.status();
    return status.error === undefined
      ? { status: status.status }
      : { status: status.status, error: status.error.message };
  } catch {
    return { status: "unknown" };
  } finally {
    disposeStub(instance);
  }
}
