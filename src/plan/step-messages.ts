/**
 * What a plan step's fields must be: the pattern of ids and the messages of
 * the step checks, shared by the step schemas and `checkPlanStep`.
 *
 * @module
 */

/** What a step id may be made of: no whitespace, dots, braces or brackets, so that `{{id.path}}` parses. */
export const STEP_ID_PATTERN = /^[^\s.{}[\]]+$/u;

/** A step id that is not a string. */
export const ID_TYPE_MESSAGE = "a step id must be a string";
/** An empty step id. */
export const ID_EMPTY_MESSAGE = "a step id must not be empty";
/** A step id with whitespace, dots, braces or brackets. */
export const ID_PATTERN_MESSAGE = "a step id must not contain whitespace, dots, braces or brackets";
/** The reserved id. */
export const ID_RESERVED_MESSAGE = '"context" is reserved for run-context references';
/** An unknown step type. */
export const TYPE_MESSAGE = 'type must be "tool", "llm" or "reply"';
/** A tool step without a tool name. */
export const NAME_TYPE_MESSAGE = "a tool step needs a tool name";
/** An empty tool name. */
export const NAME_EMPTY_MESSAGE = "the tool name must not be empty";
/** Arguments that are not an object. */
export const ARGUMENTS_MESSAGE = "arguments must be an object";
/** An llm step without a prompt. */
export const PROMPT_TYPE_MESSAGE = "an llm step needs a prompt";
/** An empty prompt. */
export const PROMPT_EMPTY_MESSAGE = "the prompt must not be empty";
/** A reply step without text. */
export const TEXT_TYPE_MESSAGE = "a reply step needs text";
/** An empty reply text. */
export const TEXT_EMPTY_MESSAGE = "the reply text must not be empty";
/** A dependsOn that is not an array. */
export const DEPENDS_ON_MESSAGE = "dependsOn must be an array of step ids";
/** A description that is not a string. */
export const DESCRIPTION_MESSAGE = "description must be a string";
/** Retries that are not a number. */
export const RETRIES_TYPE_MESSAGE = "retries must be a number";
/** Retries that are not an integer. */
export const RETRIES_INTEGER_MESSAGE = "retries must be an integer";
/** Negative retries. */
export const RETRIES_NEGATIVE_MESSAGE = "retries must not be negative";
/** A timeout that is not a number. */
export const TIMEOUT_TYPE_MESSAGE = "timeoutMs must be a number";
/** A timeout that is not positive. */
export const TIMEOUT_POSITIVE_MESSAGE = "timeoutMs must be positive";
/** An infinite timeout. */
export const TIMEOUT_FINITE_MESSAGE = "timeoutMs must be finite";
