/**
 * Which tool calls wait for a person's approval.
 *
 * @module
 */

/**
 * When a person is asked:
 *
 * - `"plan"` — once, when the source that wrote the step (the plan, a
 *   repair, a re-plan patch, a native tool-call turn) ended; the approval
 *   covers the step whatever values its references later bring;
 * - `"step"` — at the same time, and again just before the step starts if
 *   its resolved arguments differ from what was shown.
 */
export type ApprovalMode = "plan" | "step";

/** What an approval function is told about one call. */
export interface ApprovalCall {
  /** The tool. */
  tool: string;
  /** The step. */
  stepId: string;
  /**
   * The arguments: as planned (references still written as `{{id.path}}`)
   * when the source ends, then resolved just before the step starts.
   */
  arguments: Readonly<Record<string, unknown>>;
  /** Whether `arguments` are the resolved ones. */
  resolved: boolean;
}

/**
 * The application's approval rule for one tool: a mode, or a function of
 * the call that returns a mode or `"none"`. A function is asked when the
 * source ends and again with the resolved arguments just before the step
 * starts, so a value that arrives through a reference cannot slip past it.
 * Only the application sets this; a plan, a model or a tool's MCP
 * annotations never turn it off.
 *
 * @example
 * ```ts
 * const policy = { send_mail: { approval: "plan" }, pay: { approval: ({ arguments: args }) => (Number(args.amount) > 100 ? "step" : "none") } };
 * ```
 */
export type ApprovalPolicy = ApprovalMode | ((call: ApprovalCall) => ApprovalMode | "none" | undefined);
