import { demoWorkerOptions } from "../../worker/demo/demo-worker-options.ts";
import type { WorkerOptions } from "../../worker/worker-options.ts";

/**
 * The demo's Worker options for a fork with tools of its own: without the
 * demo's approval policies, whose keys name demo tools (a policy naming a
 * tool the registry lacks is refused), and with the fork's overrides.
 *
 * @param overrides - the fork's options.
 * @returns the options.
 */
export function forkOptions(overrides: Partial<WorkerOptions>): WorkerOptions {
  const { approvalPolicy: _approvals, runtime, ...rest } = demoWorkerOptions;
  const { policy: _policy, ...settings } = runtime ?? {};
  return { ...rest, runtime: settings, ...overrides };
}
