/**
 * plankit/ai — adapters between the AI SDK (`ai`) and plankit's model interface.
 *
 * @module
 */
export {};
