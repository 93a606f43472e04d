/**
 * A guided conversation: the decision engine driving skills turn by turn.
 *
 * @module
 */
import * as v from "valibot";
import { PlankitError } from "../errors/plankit-error.ts";
import type { PlanModel } from "../model/plan-model.ts";
import { randomId } from "../shared/random-id.ts";
import { availableSkills } from "./available-skills.ts";
import { decideUntilReply, type GuidedDecisionLoop } from "./decide-until-reply.ts";
import type { Decision } from "./decision.ts";
import { type DecisionState, DecisionStateSchema } from "./decision-state.ts";
import type {
  GuidedConversation,
  GuidedConversationOptions,
  GuidedEventBody,
  GuidedTurn,
  GuidedTurnOptions,
  SkillArgumentsContext,
} from "./guided-conversation.ts";
import type { GuidedEvent, GuidedTurnUsage } from "./guided-event.ts";
import type { GuidedReplyInput, MissingGoal, RecordedValue } from "./guided-reply-input.ts";
import { isPresent } from "./is-present.ts";
import { parsePlaybook } from "./parse-playbook.ts";
import { PhaseManager } from "./phase-manager.ts";
import type { Playbook } from "./playbook.ts";
import { resolvePath } from "./resolve-path.ts";
import type { Skill } from "./skill.ts";
import { toSkillMap } from "./skill-catalog.ts";
import { writeGuidedTurnReply } from "./write-guided-turn-reply.ts";

/**
 * The default clock.
 *
 * @returns milliseconds.
 */
function defaultNow(): number {
  return typeof performance === "undefined" ? Date.now() : performance.now();
}

/**
 * The default arguments of a skill's tool: the message, and the values of the
 * skill's required paths that are present.
 *
 * @param skill - the skill.
 * @param context - the message and the state.
 * @returns `{ message, inputs }`.
 */
function defaultSkillArguments(skill: Skill, { message, state }: SkillArgumentsContext): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const requires = skill.meta?.requires;
  for (const path of [...(requires?.all ?? []), ...(requires?.any ?? [])]) {
    const resolved = resolvePath(state, path);
    if (!resolved.found || !isPresent(resolved.value)) continue;
    Object.defineProperty(inputs, path, {
      value: resolved.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { message, inputs };
}

/**
 * Every skill name a playbook allows anywhere.
 *
 * @param playbook - the playbook.
 * @returns the names.
 */
function allowedNames(playbook: Playbook): Set<string> {
  return new Set([
    ...(playbook.allowed_skills ?? []),
    ...playbook.phases.flatMap((phase) => phase.allowed_skills ?? []),
  ]);
}

/**
 * Creates a guided conversation: each `turn(message)` lets the decision
 * engine (`decide`) choose what to do and acts on it, until the turn has a
 * reply:
 *
 * - `call_skill` → the skill's tool (the tool named like the skill) runs through
 *   the registry, arguments validated, and its result is written into the state
 *   under the paths the skill provides (see `applySkillOutputs`); then the
 *   engine decides again. A skill that records nothing new, or that the engine
 *   picks a second time in the same turn, is waiting for the user: the turn
 *   replies. A `force_skill` is cleared once it ran.
 * - `replan` → `current_task_id` moves to `next_phase` and the engine decides again.
 * - `respond` → the model writes the reply from what the phase still needs and
 *   what the turn recorded (`buildGuidedReplyPrompt`); without a model, or when
 *   it fails, a template does (`renderGuidedReply`).
 * - `finish` → a closing reply, written the same way.
 *
 * Every step is an event (`turn-start`, `decision` with the trace,
 * `skill-start`, `skill-end`, `skill-error`, `phase-change`, `reply`,
 * `turn-end` with the reply and the new state). The state is never changed in
 * place: each turn returns a new one. A turn that fails leaves the state as it
 * was, emits `turn-end` with the error, and rejects.
 *
 * @param options - playbook, skills, registry, and optionally a model, first state, chain and limits.
 * @returns the conversation.
 * @throws PlankitError `invalid-playbook` (with every issue), `unknown-tool` when an allowed skill has no tool,
 *   `invalid-options` for a bad `maxDecisions` or initial state.
 * @example
 * ```ts
 * const conversation = createGuidedConversation({ playbook, skills, registry, model });
 * const first = await conversation.turn("Hi! I'd like to go to Tokyo");
 * first.reply;                  // e.g. "Tokyo — noted. When are you travelling?"
 * const second = await conversation.turn("From 2026-05-01 to 2026-05-08");
 * second.finished;              // true once the last phase is complete
 * ```
 */
export function createGuidedConversation(options: GuidedConversationOptions): GuidedConversation {
  const playbook = parsePlaybook(options.playbook, options.skills, options.validation);
  const skills = toSkillMap(options.skills);
  const { registry, model, strategies } = options;
  const maxDecisions = checkConversationOptions(options, playbook);
  const phases = new PhaseManager(playbook);
  const skillArguments = options.skillArguments ?? defaultSkillArguments;
  const now = options.now ?? defaultNow;
  const idGenerator = options.idGenerator ?? (() => randomId("turn"));

  let ownState = parseState(options.state ?? {}, "Option state");
  let busy = false;

  async function runTurn(
    message: string,
    turnOptions: GuidedTurnOptions,
    startState: DecisionState,
  ): Promise<GuidedTurn> {
    const { signal, onEvent } = turnOptions;
    const turnId = idGenerator();
    const started = now();
    const events: GuidedEvent[] = [];
    const usage: GuidedTurnUsage = { decisions: 0, modelCalls: 0, toolCalls: 0 };
    const emit = (event: GuidedEventBody): void => {
      const full = { ...event, turnId, t: Math.max(0, now() - started) } as GuidedEvent;
      events.push(full);
      onEvent?.(full);
    };
    const countedModel = model === undefined ? undefined : countingCalls(model, usage);
    const checkAbort = (): void => {
      if (signal?.aborted === true) throw new PlankitError("aborted", "The turn was aborted", { cause: signal.reason });
    };
    const skillContext = { registry, turnId, signal, now, emit, checkAbort, usage };

    let state: DecisionState = startState;
    const firstPhase = phases.current(state);
    if (state.current_task_id !== firstPhase.id) state = { ...state, current_task_id: firstPhase.id };
    emit({ type: "turn-start", message, phase: firstPhase.id });
    const decisions: Decision[] = [];
    const recorded: RecordedValue[] = [];
    try {
      const turn: GuidedDecisionLoop = {
        message,
        playbook,
        skills,
        phases,
        maxDecisions,
        skillArguments,
        model: countedModel,
        signal,
        strategies,
        decisions,
        recorded,
        skill: skillContext,
      };
      const outcome = await decideUntilReply(turn, state);
      state = outcome.state;
      checkAbort();
      const input: GuidedReplyInput = {
        action: outcome.action,
        phase: phases.current(state),
        missing: outcome.action === "finish" ? [] : missingGoals(state, playbook, phases, skills),
        recorded,
        reason: outcome.reason,
        message,
        state,
      };
      const reply = await writeGuidedTurnReply(input, countedModel, signal, checkAbort);
      emit(reply);
      const phase = phases.current(state).id;
      emit({
        type: "turn-end",
        phase,
        finished: outcome.action === "finish",
        reply: reply.text,
        state,
        usage: { ...usage },
        durationMs: Math.max(0, now() - started),
      });
      return {
        turnId,
        reply: reply.text,
        action: outcome.action,
        finished: outcome.action === "finish",
        phase,
        state,
        decisions,
        events,
      };
    } catch (error) {
      const failure = PlankitError.isInstance(error)
        ? error
        : new PlankitError("tool-error", error instanceof Error ? error.message : String(error), { cause: error });
      emit({
        type: "turn-end",
        phase: phases.current(startState).id,
        finished: false,
        state: startState,
        usage: { ...usage },
        durationMs: Math.max(0, now() - started),
        error: { code: failure.code, message: failure.message },
      });
      throw failure;
    }
  }

  return {
    playbook,
    get state() {
      return ownState;
    },
    async turn(message, turnOptions = {}) {
      if (typeof message !== "string")
        throw new PlankitError("invalid-options", `The message must be a string, got ${typeof message}`);
      if (turnOptions.state !== undefined)
        return runTurn(message, turnOptions, parseState(turnOptions.state, "The turn's state"));
      if (busy)
        throw new PlankitError(
          "invalid-options",
          "A turn is already running on this conversation: wait for it, or pass the state explicitly",
        );
      busy = true;
      try {
        const turn = await runTurn(message, turnOptions, ownState);
        ownState = turn.state;
        return turn;
      } finally {
        busy = false;
      }
    },
  };
}

/**
 * Reads a decision state given by the caller.
 *
 * @param input - the state.
 * @param what - what it is, for the error.
 * @returns a copy of the state.
 * @throws PlankitError `invalid-options` naming where the state is wrong.
 */
function parseState(input: unknown, what: string): DecisionState {
  const parsed = v.safeParse(DecisionStateSchema, input);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue.path ?? []).map((item) => String(item.key)).join(".");
    throw new PlankitError(
      "invalid-options",
      `${what} is not a decision state${where === "" ? "" : ` (at ${where})`}: ${issue.message}`,
    );
  }
  return structuredClone(parsed.output);
}

/**
 * The goals the current phase still misses, each with a hint from a skill that provides it.
 *
 * @param state - the state.
 * @param playbook - the playbook.
 * @param phases - its phases.
 * @param skills - the skills by name.
 * @returns the missing goals.
 */
function missingGoals(
  state: DecisionState,
  playbook: Playbook,
  phases: PhaseManager,
  skills: ReadonlyMap<string, Skill>,
): MissingGoal[] {
  const phase = phases.current(state);
  const available = availableSkills(state, playbook, phase, skills);
  return phases.missingGoals(phase, state).map((goal) => {
    const provider =
      available.find((skill) => skill.outputs?.provides?.includes(goal)) ??
      [...skills.values()].find((skill) => skill.outputs?.provides?.includes(goal));
    return provider?.description === undefined ? { goal } : { goal, hint: provider.description };
  });
}

/**
 * Checks the conversation's registry against the playbook and its decision limit.
 *
 * @param options - the options.
 * @param playbook - the parsed playbook.
 * @returns the most decisions a turn may make.
 * @throws PlankitError `invalid-options` for a registry that is none or a bad `maxDecisions`, `unknown-tool` when an
 *   allowed skill has no tool.
 */
function checkConversationOptions(options: GuidedConversationOptions, playbook: Playbook): number {
  const { registry } = options;
  if (typeof registry?.call !== "function" || typeof registry.has !== "function") {
    throw new PlankitError("invalid-options", "Option registry must be a ToolRegistry");
  }
  for (const name of allowedNames(playbook)) {
    if (!registry.has(name)) {
      throw new PlankitError(
        "unknown-tool",
        `Skill "${name}" is allowed by the playbook, but the registry has no tool "${name}": register a tool named after the skill`,
      );
    }
  }
  const maxDecisions = options.maxDecisions ?? 32;
  if (!Number.isInteger(maxDecisions) || maxDecisions < 1) {
    throw new PlankitError(
      "invalid-options",
      `Option maxDecisions must be an integer of at least 1, got ${String(maxDecisions)}`,
    );
  }
  return maxDecisions;
}

/**
 * The model, with each call counted in the turn's usage.
 *
 * @param model - the model.
 * @param usage - the turn's counters.
 * @returns the counting model.
 */
function countingCalls(model: PlanModel, usage: GuidedTurnUsage): PlanModel {
  return {
    stream(request) {
      usage.modelCalls++;
      return model.stream(request);
    },
  };
}
