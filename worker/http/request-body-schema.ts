/**
 * The body of `POST /v1/plan` and `POST /v1/run`.
 *
 * @module
 */
import * as v from "valibot";

const ProfileSchema = v.strictObject(
  {
    name: v.pipe(
      v.string("profile.name must be a string"),
      v.maxLength(100, "profile.name must be at most 100 characters"),
    ),
    role: v.pipe(
      v.string("profile.role must be a string"),
      v.maxLength(200, "profile.role must be at most 200 characters"),
    ),
    language: v.optional(
      v.pipe(
        v.string("profile.language must be a string"),
        v.maxLength(50, "profile.language must be at most 50 characters"),
      ),
    ),
    goals: v.optional(
      v.pipe(
        v.array(
          v.pipe(v.string("each goal must be a string"), v.maxLength(200, "a goal must be at most 200 characters")),
        ),
        v.maxLength(10, "at most 10 goals"),
      ),
    ),
    constraints: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string("each constraint must be a string"),
            v.maxLength(200, "a constraint must be at most 200 characters"),
          ),
        ),
        v.maxLength(10, "at most 10 constraints"),
      ),
    ),
  },
  (issue) => {
    const key = issue.path?.at(-1)?.key;
    if (issue.expected === "never") return `unknown member ${issue.received}`;
    return key === undefined || key === "profile"
      ? "profile must be a string or an object with name and role"
      : `profile.${String(key)} is required`;
  },
);

/**
 * The members `/v1/plan`, `/v1/run` and `/v1/chat` share: optional
 * `profile` (a string or `{ name, role, language?, goals?, constraints? }`),
 * `tools` (names of known tools to use) and `maxSteps` (1–12).
 *
 * @param toolNames - the tools a request may name.
 * @returns the valibot entries.
 */
export function createRunOptionEntries(toolNames: readonly string[]) {
  return {
    profile: v.optional(
      v.union(
        [v.pipe(v.string(), v.maxLength(4000, "profile must be at most 4000 characters")), ProfileSchema],
        "profile must be a string or an object with name and role",
      ),
    ),
    tools: v.optional(
      v.pipe(
        v.array(
          v.picklist(toolNames, `each tool must be one of: ${toolNames.join(", ")}`),
          "tools must be an array of tool names",
        ),
        v.minLength(1, "tools must name at least one tool"),
        v.maxLength(toolNames.length, `tools may name at most ${toolNames.length} tools`),
      ),
    ),
    maxSteps: v.optional(
      v.pipe(
        v.number("maxSteps must be a number"),
        v.integer("maxSteps must be an integer"),
        v.minValue(1, "maxSteps must be at least 1"),
        v.maxValue(12, "maxSteps must be at most 12"),
      ),
    ),
  };
}

/**
 * The message of a body that is not an object, has an unknown member or
 * misses a required one.
 *
 * @param issue - the object-level issue.
 * @returns the message.
 */
export function describeBodyIssue(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.[0]?.key;
  if (key === undefined) return "the body must be a JSON object";
  return issue.expected === "never" ? `unknown member ${issue.received}` : `${String(key)} is required`;
}

/** A UTF-16 surrogate without its pair: text no storage keeps as it was sent. */
const loneSurrogate = /\p{Cs}/u;

/**
 * The message of a query with a lone surrogate, naming it and where it is.
 *
 * @param issue - the issue, whose input is the query.
 * @returns the message.
 */
function describeLoneSurrogate(issue: v.BaseIssue<unknown>): string {
  const query = String(issue.input);
  const index = query.search(loneSurrogate);
  const unit = `\\u${query.charCodeAt(index).toString(16)}`;
  return `query must be well-formed Unicode text (a lone surrogate ${unit} at index ${index})`;
}

/**
 * Builds the schema of a request body: `query` (1–2000 characters after
 * trimming, well-formed Unicode) and the members of {@link createRunOptionEntries}. Unknown
 * members are refused, so a misspelt option is a 400 rather than silently
 * ignored.
 *
 * @param toolNames - the tools a request may name.
 * @returns the valibot schema.
 *
 * @example
 * ```ts
 * const result = v.safeParse(createRequestBodySchema(["calculator"]), { query: "21*2+5?" });
 * ```
 */
export function createRequestBodySchema(toolNames: readonly string[]) {
  return v.strictObject(
    {
      query: v.pipe(
        v.string("query must be a string"),
        v.trim(),
        v.minLength(1, "query must not be empty"),
        v.maxLength(2000, "query must be at most 2000 characters"),
        v.check((query) => !loneSurrogate.test(query), describeLoneSurrogate),
      ),
      ...createRunOptionEntries(toolNames),
    },
    describeBodyIssue,
  );
}
