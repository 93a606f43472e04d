import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonl } from "../../src/events/parse-jsonl.ts";
import { replay } from "../../src/events/replay.ts";
import { toJsonl } from "../../src/events/to-jsonl.ts";
import type { PlanStep } from "../../src/plan/plan-step-schema.ts";
import type { Reflection } from "../../src/planner/reflector.ts";
import { AgentRuntime } from "../../src/runtime/agent-runtime.ts";
import { ToolRegistry } from "../../src/tools/tool-registry.ts";
import { createRandom } from "../fixtures/create-random.ts";
import { collect, createFakePlanner, delay, invariantProblems, reply, tool } from "./fake-planner.ts";

const unhandled: unknown[] = [];
const onRejection = (event: { reason?: unknown; preventDefault?: () => void }): void => {
  unhandled.push(event.reason);
};
const onNodeRejection = (reason: unknown): void => {
  unhandled.push(reason);
};
type Listener = (event: { reason?: unknown }) => void;
const host = globalThis as unknown as {
  addEventListener?: (type: string, listener: Listener) => void;
  removeEventListener?: (type: string, listener: Listener) => void;
  process?: {
    on?: (type: string, listener: (reason: unknown) => void) => void;
    off?: (type: string, listener: (reason: unknown) => void) => void;
  };
};

beforeAll(() => {
  host.addEventListener?.("unhandledrejection", onRejection);
  host.process?.on?.("unhandledRejection", onNodeRejection);
});
afterAll(() => {
  host.removeEventListener?.("unhandledrejection", onRejection);
  host.process?.off?.("unhandledRejection", onNodeRejection);
});

/** A registry whose tools misbehave at random: throw, hang past the timeout, or return output that fails the schema. */
function chaosRegistry(random: () => number): ToolRegistry {
  const behave = async (args: Record<string, unknown>): Promise<unknown> => {
    const roll = random();
    if (roll < 0.2) {
      await delay(Math.floor(random() * 3));
      throw new Error("injected failure");
    }
    if (roll < 0.3) return new Promise(() => undefined); // hangs, ignoring its signal
    if (roll < 0.4) return { n: "not a number" };
    await delay(Math.floor(random() * 4));
    return { n: Math.floor(random() * 100), echo: args };
  };
  const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
  return new ToolRegistry().register([
    {
      name: "read",
      inputSchema: { type: "object" },
      outputSchema,
      annotations: { readOnlyHint: true },
      execute: behave,
    },
    {
      name: "upsert",
      inputSchema: { type: "object" },
      outputSchema,
      annotations: { idempotentHint: true },
      execute: behave,
    },
    { name: "write", inputSchema: { type: "object" }, outputSchema, execute: behave },
  ]);
}

function randomPlan(random: () => number, prefix: string, size: number, known: readonly string[]): PlanStep[] {
  const steps: PlanStep[] = [];
  const ids = [...known];
  for (let index = 0; index < size; index++) {
    const id = `${prefix}${index + 1}`;
    const names = ["read", "read", "upsert", "write"];
    const name = names[Math.floor(random() * names.length)] ?? "read";
    const args: Record<string, unknown> = { i: index };
    if (ids.length > 0 && random() < 0.5) args["from"] = `{{${ids[Math.floor(random() * ids.length)] ?? ""}.n}}`;
    steps.push(tool(id, name, args));
    ids.push(id);
  }
  const last = ids[ids.length - 1];
  steps.push(reply(`${prefix}r`, last === undefined ? "nothing" : `value {{${last}.n}}`));
  return steps;
}

describe("fault injection", () => {
  it("every run ends, every step gets one terminal event, replay equals the live state", async () => {
    const results: { seed: number; problems: string[]; replayed: boolean; reason: string | undefined }[] = [];
    const seen = new Set<string>();
    const runOne = async (seed: number): Promise<void> => {
      const random = createRandom(seed);
      const registry = chaosRegistry(random);
      const clean = random() < 0.8;
      const planner = createFakePlanner({
        steps: randomPlan(random, "s", 3 + Math.floor(random() * 7), []),
        clean,
        stepDelayMs: Math.floor(random() * 2),
        replan: (request, call) =>
          random() < 0.3
            ? []
            : randomPlan(
                random,
                `p${call}_`,
                1 + Math.floor(random() * 3),
                request.completed.map((item) => item.step.id),
              ),
      });
      const verdicts: (Reflection | undefined)[] = [
        undefined,
        { action: "retry", reason: "again", arguments: { fixed: true } },
        { action: "new_plan", reason: "other way" },
        { action: "abort", reason: "stop" },
      ];
      const eagerModes = ["safe", "all", "none"] as const;
      const runtime = new AgentRuntime({
        planner,
        registry,
        memory: false,
        eager: eagerModes[Math.floor(random() * 3)] ?? "safe",
        timeoutMs: 15,
        retries: Math.floor(random() * 2),
        backoff: { initialMs: 1, maxMs: 3 },
        maxConcurrency: 1 + Math.floor(random() * 4),
        random,
        reflector: { reflect: () => (random() < 0.85 ? verdicts[Math.floor(random() * 3)] : verdicts[3]) },
      });
      const controller = new AbortController();
      const abortAfter = random() < 0.2 ? Math.floor(random() * 40) : undefined;
      const timer = abortAfter === undefined ? undefined : setTimeout(() => controller.abort(), abortAfter);
      const run = runtime.run(`request ${seed}`, { signal: controller.signal });
      const ended = await Promise.race([collect(run), delay(3000).then(() => undefined)]);
      if (timer !== undefined) clearTimeout(timer);
      if (ended === undefined) {
        results.push({ seed, problems: ["the run did not end within 3 s"], replayed: false, reason: undefined });
        return;
      }
      for (const event of ended) {
        if (event.type === "step-error") seen.add(`error:${event.error.code}`);
        else if (event.type === "step-skipped") seen.add(`skipped:${event.code}`);
        else if (event.type === "reflection") seen.add(`reflection:${event.action}`);
        else seen.add(event.type);
      }
      const replayed = replay(parseJsonl(toJsonl(ended)));
      results.push({
        seed,
        problems: invariantProblems(ended),
        replayed: JSON.stringify(replayed) === JSON.stringify(run.state),
        reason: run.state.reason,
      });
    };
    const seeds = Array.from({ length: 60 }, (_, index) => 1000 + index);
    for (let start = 0; start < seeds.length; start += 15) {
      await Promise.all(seeds.slice(start, start + 15).map(runOne));
    }
    await delay(20);
    expect(results.filter((result) => result.problems.length > 0 || !result.replayed)).toEqual([]);
    expect(results).toHaveLength(60);
    // The seeds exercise every way a run can end but the deadline.
    const reasons = new Set(results.map((result) => result.reason));
    for (const reason of ["completed", "failed", "aborted"]) expect(reasons.has(reason)).toBe(true);
    // …and every kind of fault and recovery.
    const kinds = [
      "error:tool-error",
      "error:timeout",
      "error:invalid-output",
      "error:aborted",
      "step-retry",
      "replan",
      "reflection:retry",
      "reflection:abort",
      "skipped:dependency-failed",
      "skipped:unsafe-plan",
      "skipped:replaced",
    ];
    expect(kinds.filter((kind) => !seen.has(kind))).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 20_000);
});
