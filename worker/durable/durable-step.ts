/**
 * The part of a Workflow's `step` a durable run uses.
 *
 * @module
 */
import type { WorkflowStepConfig } from "cloudflare:workers";

/** What a durable step's callback is told: the attempt (1 for the first). */
export interface DurableStepContext {
  attempt: number;
}

/**
 * The `step.do` of Cloudflare Workflows, narrowed to what a durable run
 * calls: a named unit of work whose result the engine stores, so an
 * execution that replays the run gets the stored result (or stored
 * failure) instead of running it again; retried and timed out per `config`.
 *
 * @example
 * ```ts
 * const durable: DurableStep = { do: (name, config, callback) => step.do(name, config, callback as never) };
 * ```
 */
export interface DurableStep {
  do<T>(name: string, config: WorkflowStepConfig, callback: (context: DurableStepContext) => Promise<T>): Promise<T>;
}
