/**
 * The body of `POST /v1/runs`.
 *
 * @module
 */
import * as v from "valibot";
import { createRequestBodySchema } from "../http/request-body-schema.ts";

/**
 * Builds the schema of a `POST /v1/runs` body: the `/v1/run` body
 * (`query`, `profile`, `tools`, `maxSteps`) plus `durable` (a boolean,
 * `true` by default: a Workflow runs the plan; `false`: the session object
 * runs it in memory) and `session` (1–60 of `A-Z a-z 0-9 _ -`: the
 * conversation whose memory the run shares; a fresh one by default).
 * Unknown members are refused.
 *
 * @param toolNames - the tools a request may name.
 * @returns the valibot schema.
 *
 * @example
 * ```ts
 * const result = v.safeParse(createRunsBodySchema(["calculator"]), { query: "21*2+5?", durable: true, session: "chat_42" });
 * ```
 */
export function createRunsBodySchema(toolNames: readonly string[]) {
  const base = createRequestBodySchema(toolNames);
  return v.strictObject(
    {
      ...base.entries,
      durable: v.optional(v.boolean("durable must be true or false")),
      session: v.optional(
        v.pipe(
          v.string("session must be a string"),
          v.regex(/^[A-Za-z0-9_-]{1,60}$/u, "session must be 1 to 60 letters, digits, _ or -"),
        ),
      ),
    },
    base.message,
  );
}

/** A validated `POST /v1/runs` body. */
type RunsBody = v.InferOutput<ReturnType<typeof createRunsBodySchema>>;
