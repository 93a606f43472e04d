/**
 * How a reply quotes a demo step's result.
 *
 * @module
 */

/**
 * The reply text that quotes a step's result through references, by the
 * tool's output shape: a fact's or a conversion's sentence, a calculation, a
 * local time, a search count, a saved note's title, an `llm` step's text.
 *
 * @param step - a canonical step (`id`, `type`, and `name` for tool steps).
 * @returns the text with `{{…}}` references, or `undefined` for a reply step.
 *
 * @example
 * ```ts
 * describeStepResult({ id: "s3", type: "tool", name: "calculator" }); // "{{s3.expr}} = {{s3.value}}."
 * ```
 */
export function describeStepResult(step: { id: string; type: string; name?: string }): string | undefined {
  const id = step.id;
  if (step.type === "llm") return `{{${id}}}`;
  if (step.type !== "tool") return undefined;
  switch (step.name) {
    case "kb_lookup":
    case "slow_lookup":
      return `{{${id}.text}}`;
    case "convert_units":
      return `{{${id}.text}}.`;
    case "calculator":
      return `{{${id}.expr}} = {{${id}.value}}.`;
    case "current_time":
      return `It is {{${id}.local}} ({{${id}.timeZone}}).`;
    case "kb_search":
      return `The knowledge base search found {{${id}.count}} fact(s).`;
    case "save_note":
      return `I saved the note "{{${id}.title}}".`;
    default:
      return `{{${id}}}`;
  }
}
