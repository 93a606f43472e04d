/**
 * What an application (the demo, a fork, a test) gives the Worker.
 *
 * @module
 */

import type { Playbook, Skill } from "../src/decide.ts";
import type { AgentRuntimeOptions, ToolPolicy, ToolRegistry } from "../src/index.ts";
import type { SelectedModel } from "./select-model.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The guided conversation `POST /v1/guide` holds: its playbook, skills and tools. */
export interface GuideOptions {
  playbook: Playbook;
  skills: readonly Skill[];
  /** The tools of one turn. */
  createTools: () => ToolRegistry;
}

/**
 * Options of `createWorker` and of `createRunSetup` (session and durable
 * runs): what the application provides. With none, the Worker has no tools,
 * plans with the model its environment configures (see `selectModel`) and
 * has no `/v1/guide`.
 */
export interface WorkerOptions {
  /**
   * The tools of one request or run.
   *
   * @defaultValue no tools
   */
  createTools?: (env: WorkerEnv) => ToolRegistry;
  /**
   * The model of one request or run.
   *
   * @defaultValue `selectModel(env, offlineModel)`
   */
  selectModel?: (env: WorkerEnv) => SelectedModel;
  /**
   * The model when the environment configures none (no OpenAI settings, no
   * Workers AI binding). Without it such a request is refused with 503
   * `model-not-configured`.
   */
  offlineModel?: (env: WorkerEnv) => SelectedModel;
  /** The tool that `query_kb` steps call (see `LLMPlanner`'s `knowledgeBaseTool`). */
  knowledgeBaseTool?: string;
  /** Which tools a session or durable run asks a person about (`RunSetup.policy`). */
  approvalPolicy?: Readonly<Record<string, ToolPolicy>>;
  /** The guided conversation of `POST /v1/guide`; without it the route does not exist. */
  guide?: GuideOptions;
  /** Runtime settings for the runs answered in the request, over `workerDefaults.runtime`. */
  runtime?: Partial<Omit<AgentRuntimeOptions, "planner" | "registry" | "model" | "profile">>;
}
