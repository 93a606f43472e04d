/**
 * What a plan step's fields must be: the pattern of ids and the messages of
 * the step checks, shared by the step schemas and `checkPlanStep`.
 *
 * @module
 */

/** What a step id may be made of: no whitespace, dots, braces or brackets, so that `{{id.path}}` parses. */
export const STEP_ID_PATTERN = /^[^\s.{}[\]]+$/u;

/** The messages by the field and the rule it breaks. */
export const stepMessages = {
  idType: "a step id must be a string",
  idEmpty: "a step id must not be empty",
  idPattern: "a step id must not contain whitespace, dots, braces or brackets",
  idReserved: '"context" is reserved for run-context references',
  type: 'type must be "tool", "llm" or "reply"',
  nameType: "a tool step needs a tool name",
  nameEmpty: "the tool name must not be empty",
  arguments: "arguments must be an object",
  promptType: "an llm step needs a prompt",
  promptEmpty: "the prompt must not be empty",
  textType: "a reply step needs text",
  textEmpty: "the reply text must not be empty",
  dependsOn: "dependsOn must be an array of step ids",
  description: "description must be a string",
  retriesType: "retries must be a number",
  retriesInteger: "retries must be an integer",
  retriesNegative: "retries must not be negative",
  timeoutType: "timeoutMs must be a number",
  timeoutPositive: "timeoutMs must be positive",
  timeoutFinite: "timeoutMs must be finite",
} as const;
