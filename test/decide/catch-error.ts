import { PlankitError } from "../../src/errors/plankit-error.ts";

/** Runs `body` and returns the PlankitError it throws (or rejects with); fails when it does not. */
export async function catchPlankitError(body: () => unknown): Promise<PlankitError> {
  try {
    await body();
  } catch (error) {
    if (PlankitError.isInstance(error)) return error;
    throw new Error(`expected a PlankitError, got ${String(error)}`);
  }
  throw new Error("expected a PlankitError, but nothing was thrown");
}
