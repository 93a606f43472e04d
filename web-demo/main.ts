/**
 * The web demo's entry point (placeholder until the demo is built).
 *
 * @module
 */
export {};
