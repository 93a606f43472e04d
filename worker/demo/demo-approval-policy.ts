/**
 * Which demo tools need a person's approval.
 *
 * @module
 */
import type { ToolPolicy } from "../../src/index.ts";

/**
 * The demo's approval policy: `save_note`, its one side-effecting tool,
 * waits for a person's approval of the whole plan. Session and durable runs
 * ask it (the Worker's `approvalPolicy`), and so does the page's in-browser
 * mode; the runs answered in the request deny it at once (the Worker's
 * `runtime.policy`), since nobody can approve it there.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime({ planner, registry: createDemoTools(), model, policy: demoApprovalPolicy });
 * ```
 */
export const demoApprovalPolicy: Readonly<Record<string, ToolPolicy>> = { save_note: { approval: "plan" } };
