/**
 * Turning any thrown value into a readable error.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { RuntimeErrorInfo } from "./runtime-event.ts";

/**
 * Reads a value without letting a getter or a proxy trap throw.
 *
 * @param read - the read.
 * @returns the value, or `undefined` when the read threw.
 */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Describes a thrown value that is not an `Error`.
 *
 * @param value - anything.
 * @returns text, never throwing.
 */
function describeThrown(value: unknown): string {
  if (value === undefined || value === null) return `${value} was thrown`;
  if (typeof value === "string") return value === "" ? "an empty string was thrown" : value;
  // String never throws on a number, boolean, bigint or symbol.
  if (typeof value !== "object" && typeof value !== "function") return `${typeof value} ${String(value)} was thrown`;
  const json = safely(() => JSON.stringify(value));
  if (typeof json === "string" && json !== "{}" && json.length <= 500) return `a non-Error value was thrown: ${json}`;
  const text = safely(() => String(value));
  if (typeof text === "string" && text !== "[object Object]" && text !== "")
    return `a non-Error value was thrown: ${text.slice(0, 500)}`;
  const tag = safely(() => Object.prototype.toString.call(value)) ?? "[object]";
  return `a non-Error value was thrown (${tag})`;
}

/**
 * Turns anything thrown into a code and a message, without ever throwing
 * itself: null-prototype objects, objects whose `toString` throws, proxies
 * whose traps throw, `undefined`.
 *
 * @param error - anything thrown.
 * @param fallbackCode - the code for errors that are not plankit errors.
 * @returns the code and message.
 *
 * @example
 * ```ts
 * toErrorInfo(Object.create(null), "tool-error"); // { code: "tool-error", message: "a non-Error value was thrown ([object Object])" }
 * ```
 */
export function toErrorInfo(error: unknown, fallbackCode: string): RuntimeErrorInfo {
  if (safely(() => PlankitError.isInstance(error)) === true) {
    const plankit = error as PlankitError;
    const code = safely(() => plankit.code);
    const message = safely(() => plankit.message);
    return {
      code: typeof code === "string" ? code : fallbackCode,
      message: typeof message === "string" ? message : "unknown error",
    };
  }
  if (safely(() => error instanceof Error) === true) {
    const message = safely(() => (error as Error).message);
    const name = safely(() => (error as Error).name);
    if (typeof message === "string" && message !== "") return { code: fallbackCode, message };
    return { code: fallbackCode, message: typeof name === "string" && name !== "" ? name : "Error" };
  }
  return { code: fallbackCode, message: describeThrown(error) };
}
