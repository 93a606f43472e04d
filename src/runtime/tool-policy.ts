/**
 * What the application allows one tool to do, overriding its MCP annotations.
 *
 * @module
 */
import type { ApprovalPolicy } from "./approval-policy.ts";

/**
 * The application's word on one tool: it replaces what the tool's MCP
 * annotations say (or their cautious defaults) and bounds what a plan may ask
 * for. A model cannot set any of these.
 *
 * @example
 * ```ts
 * new AgentRuntime({ planner, registry, policy: { search: { readOnly: true, retries: 3 }, send_mail: { timeoutMs: 5_000, approval: "plan" } } });
 * ```
 */
export interface ToolPolicy {
  /** The tool does not change its environment: it may start while the plan streams, and be cached. Overrides `readOnlyHint`. */
  readOnly?: boolean;
  /** Repeating a call with the same arguments has no further effect: it may be retried. Overrides `idempotentHint`. */
  idempotent?: boolean;
  /** The most retries after a failed attempt; a plan's `retries` may only lower it. */
  retries?: number;
  /** The longest one attempt may take, in ms; a plan's `timeoutMs` may only lower it. */
  timeoutMs?: number;
  /** `false` keeps a read-only tool's results out of every cache. */
  cache?: boolean;
  /**
   * A person approves each call before it starts: once per source
   * (`"plan"`), or also again when its resolved arguments differ from what
   * was shown (`"step"`), or as a function of the call decides. MCP
   * annotations never turn it off (a read-only tool marked here waits too).
   *
   * @defaultValue none
   */
  approval?: ApprovalPolicy;
}
