/**
 * The part of a Workflow's `step` a durable run uses.
 *
 * @module
 */
/**
 * How the engine retries and times out a durable step: the numeric subset
 * of Workflows' `WorkflowStepConfig` (milliseconds), so the helpers that
 * build it need no Workers types.
 */
export interface DurableStepConfig {
  retries?: {
    /** Retries after the first attempt. */
    limit: number;
    /** The delay before the first retry, in milliseconds. */
    delay: number;
    /** How the delay grows: `exponential` doubles it each time. */
    backoff?: "constant" | "linear" | "exponential";
  };
  /** The time limit of one attempt, in milliseconds. */
  timeout?: number;
}

/** What a durable step's callback is told: the attempt (1 for the first). */
interface DurableStepContext {
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
  do<T>(name: string, config: DurableStepConfig, callback: (context: DurableStepContext) => Promise<T>): Promise<T>;
}
