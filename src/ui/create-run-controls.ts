/**
 * Where a run store sends a person's decisions and a stop: a callback, the
 * run handle, or the run's routes beside its event stream.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { ApprovalDecision } from "../events/approval-decision.ts";
import { describeHttpFailure } from "./describe-http-failure.ts";

/** Where the store's options send decisions and a stop, and the token for the run's routes. */
interface RunControlOptions {
  token?: string | undefined;
  onApprove?: ((decisions: readonly ApprovalDecision[]) => void | Promise<void>) | undefined;
  onStop?: (() => void | Promise<void>) | undefined;
}

/** The parts of a run handle that take decisions and a stop. */
interface ControlledRun {
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void;
  abort(reason?: string): void;
}

/** What a store can send to its run (see `RunStore`). */
export interface RunControls {
  readonly canApprove: boolean;
  readonly canStop: boolean;
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Builds a store's approve and stop: to `options.onApprove` / `onStop` when
 * given, else to the run handle, else `POST …/approvals` and `…/cancel` of the
 * run's URL.
 *
 * @param options - the store's options (callbacks and token).
 * @param handle - the run handle the store reads, if any.
 * @param runUrl - the run's URL (its event stream's without `/events`), if any.
 * @param fetcher - the fetch to post with.
 * @returns the controls.
 */
export function createRunControls(
  options: RunControlOptions,
  handle: ControlledRun | undefined,
  runUrl: string | undefined,
  fetcher: typeof fetch,
): RunControls {
  const post = async (path: "approvals" | "cancel", body: unknown): Promise<Response> => {
    const headers = new Headers({ "content-type": "application/json" });
    if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
    return fetcher(`${runUrl}/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  };
  return {
    canApprove: options.onApprove !== undefined || handle !== undefined || runUrl !== undefined,
    canStop: options.onStop !== undefined || handle !== undefined || runUrl !== undefined,
    async approve(decisions) {
      const list: readonly ApprovalDecision[] = Array.isArray(decisions) ? decisions : [decisions as ApprovalDecision];
      if (options.onApprove !== undefined) return options.onApprove(list);
      if (handle !== undefined) {
        try {
          handle.approve(list);
        } catch (error) {
          if (PlankitError.isInstance(error)) throw error;
          throw new PlankitError("invalid-approval", `The run refused the decisions: ${String(error)}`, {
            cause: error,
          });
        }
        return;
      }
      if (runUrl === undefined)
        throw new PlankitError(
          "invalid-options",
          "approve: this store's source has nowhere to send decisions; pass options.onApprove, a RunHandle or a …/events URL",
        );
      const response = await post("approvals", { decisions: list });
      if (!response.ok)
        throw new PlankitError("invalid-approval", await describeHttpFailure("POST", `${runUrl}/approvals`, response));
      await response.body?.cancel().catch(() => {});
    },
    async stop() {
      if (options.onStop !== undefined) return options.onStop();
      if (handle !== undefined) return handle.abort("Stopped from the run view");
      if (runUrl === undefined)
        throw new PlankitError(
          "invalid-options",
          "stop: this store's source has nowhere to send a stop; pass options.onStop, a RunHandle or a …/events URL",
        );
      const response = await post("cancel", {});
      if (!response.ok)
        throw new PlankitError("invalid-options", await describeHttpFailure("POST", `${runUrl}/cancel`, response));
      await response.body?.cancel().catch(() => {});
    },
  };
}
