/**
 * plankit/test — stand-ins for a model and a planner, for testing an
 * application's tools, policies and UI without a model.
 *
 * @module
 */
export {
  createScriptedModel,
  type ScriptedAnswer,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponder,
  type ScriptedResponse,
  type ScriptedResponsesByPurpose,
  type ScriptedToolCall,
} from "./model/create-scripted-model.ts";
export { createFixedPlanner, type FixedPlanner, type FixedPlannerOptions } from "./planner/create-fixed-planner.ts";
