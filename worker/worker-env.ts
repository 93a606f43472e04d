/**
 * The Worker's bindings and settings.
 *
 * @module
 */
import type { DurableRunParams } from "./runs/durable-run-params.ts";
import type { PlanSession } from "./runs/plan-session.ts";

/**
 * What the Worker reads from its environment. Every field is optional: with
 * none set, the Worker plans with the application's offline model (the
 * deployed Worker's is the demo model) and asks for no token.
 *
 * @example
 * ```toml
 * # wrangler.toml
 * [vars]
 * PLANKIT_CORS_ORIGINS = "https://app.example.com"
 * # secrets: wrangler secret put OPENAI_API_KEY / PLANKIT_TOKEN
 * ```
 */
export interface WorkerEnv {
  /** The static assets (the built web demo). */
  ASSETS?: { fetch(request: Request): Promise<Response> };
  /** The session objects: memory and event logs of `/v1/runs` (wrangler.toml `[[durable_objects.bindings]]`). */
  PLAN_SESSION?: DurableObjectNamespace<PlanSession>;
  /** The durable runs of `/v1/runs` (wrangler.toml `[[workflows]]`). */
  PLAN_WORKFLOW?: Workflow<DurableRunParams>;
  /**
   * A Workers AI binding (wrangler.toml `[ai] binding = "AI"`): without the
   * OpenAI settings below, plans come from `PLANKIT_MODEL` on Workers AI
   * (default `@cf/meta/llama-3.3-70b-instruct-fp8-fast`).
   */
  AI?: Ai;
  /** An OpenAI (or compatible server) API key: plans come from that model instead of the offline model. */
  OPENAI_API_KEY?: string;
  /** The base URL of an OpenAI-compatible server, e.g. `http://localhost:11434/v1`. */
  OPENAI_BASE_URL?: string;
  /** The model id, e.g. `gpt-4o-mini` (the default with OpenAI) or a Workers AI `@cf/…` id. */
  PLANKIT_MODEL?: string;
  /** When set, `/v1/*` requests need `Authorization: Bearer <token>`. */
  PLANKIT_TOKEN?: string;
  /** Origins allowed to call `/v1/*` from a browser, comma-separated, or `*`; same-origin requests are always allowed. */
  PLANKIT_CORS_ORIGINS?: string;
  /** The largest request body accepted, in bytes (default 16384). */
  PLANKIT_MAX_BODY_BYTES?: string;
  /** The offline demo model's streaming rate in tokens per second (default 45; `Infinity` for no delay), read by `worker/demo/`. */
  PLANKIT_DEMO_TOKENS_PER_SECOND?: string;
}
