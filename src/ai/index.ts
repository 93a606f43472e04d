/**
 * plankit/ai — adapters between the AI SDK (`ai`) and plankit's model interface.
 *
 * @module
 */
export { fromLanguageModel, type FromLanguageModelOptions } from "./from-language-model.ts";
