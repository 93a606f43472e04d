/**
 * Bundled for Chromium by `run-view-invariants.node.test.ts`: fast-check in
 * the page runs live runs of an `AgentRuntime` (the scripted model plans
 * read-only, failing and approval-bound tools; a person answers on the card
 * — approve, edit, deny — or denies with a re-plan, or presses Stop) one
 * after another in one `<plankit-run>`, and after every change of the store
 * compares what the elements show with the store's state.
 *
 * @module
 */
import fc from "fast-check";
import { AgentRuntime, LLMPlanner, noOpReflector } from "../../../src/index.ts";
import { createRunStore, type RunStore } from "../../../src/ui.ts";
import { liveRunModel, liveRunPlans, liveRunRegistry } from "../live-run-fixtures.ts";

/** What the page offers the test. */
export interface RunViewInvariantsPage {
  /**
   * Runs the property.
   *
   * @param runs - how many runs fast-check tries.
   * @returns fast-check's report when it failed, else an empty string.
   */
  check(runs: number): Promise<string>;
}

type Answer = "approve" | "edit" | "deny" | "replan" | "stop";

const registry = liveRunRegistry(5);

const plans = liveRunPlans(4);

const view = document.createElement("plankit-run");
document.body.append(view);

/** The shadow root of an element inside `<plankit-run>`. */
const inner = (tag: string): ShadowRoot | null | undefined => view.shadowRoot?.querySelector(tag)?.shadowRoot;

/**
 * What the elements show that disagrees with the store's state.
 *
 * @param store - the store shown.
 * @param stopped - whether the person pressed Stop during this run.
 * @returns the disagreements, in words.
 */
function disagreements(store: RunStore, stopped: boolean): string[] {
  const state = store.getSnapshot();
  const found: string[] = [];
  const expect = (what: string, shown: unknown, wanted: unknown): void => {
    if (JSON.stringify(shown) !== JSON.stringify(wanted))
      found.push(`${what}: shows ${JSON.stringify(shown)}, the state says ${JSON.stringify(wanted)}`);
  };
  const steps = state.steps.map((step) => `${step.step.id}:${step.status}`);
  expect(
    "the step list",
    [...(inner("plankit-steps")?.querySelectorAll("li") ?? [])].map(
      (item) => `${item.getAttribute("data-step")}:${item.getAttribute("data-status")}`,
    ),
    steps,
  );
  expect(
    "the graph (in any order: it is laid out in layers)",
    [...(inner("plankit-plan-graph")?.querySelectorAll("g.node") ?? [])]
      .map((node) => `${node.getAttribute("data-step")}:${node.getAttribute("data-status")}`)
      .sort(),
    [...steps].sort(),
  );
  const waiting = state.status === "running" ? state.awaitingApproval : [];
  expect(
    "the approval card's buttons",
    [...(inner("plankit-approval")?.querySelectorAll("[data-approve]") ?? [])].map((button) =>
      button.getAttribute("data-approve"),
    ),
    [...waiting].sort(
      (a, b) => state.steps.findIndex((s) => s.step.id === a) - state.steps.findIndex((s) => s.step.id === b),
    ),
  );
  expect(
    "the graph's boxes in the waiting colour (--plankit-warning's default)",
    [...(inner("plankit-plan-graph")?.querySelectorAll("g.node") ?? [])]
      .filter((node) => getComputedStyle(node.querySelector("rect") as Element).stroke === "rgb(154, 103, 0)")
      .map((node) => node.getAttribute("data-step"))
      .sort(),
    [...waiting].sort(),
  );
  const stop = view.shadowRoot?.querySelector<HTMLButtonElement>("[part=stop-button]");
  // While the run runs, Stop is offered, and disabled only once pressed for this run.
  expect(
    "the Stop button",
    { hidden: stop?.hidden, disabled: state.status === "running" ? stop?.disabled : undefined },
    { hidden: state.status !== "running", disabled: state.status === "running" ? stopped : undefined },
  );
  expect(
    "the reply",
    inner("plankit-reply")?.querySelector("[part=reply]")?.textContent ?? "",
    state.reply?.text ?? state.replyDraft ?? "",
  );
  const heading = inner("plankit-approval")?.querySelector("h2")?.textContent ?? "";
  if (waiting.length > 0 !== heading.startsWith(`Approval needed (${waiting.length} `))
    found.push(`the approval card's heading says ${JSON.stringify(heading)} while ${waiting.length} steps wait`);
  const line = view.shadowRoot?.querySelector("[part=run-status]")?.textContent ?? "";
  if (state.status === "running" && waiting.length > 0 && !line.startsWith("Waiting for your approval"))
    found.push(`the status line says ${JSON.stringify(line)} while ${waiting.join(", ")} wait`);
  if (
    state.status === "ended" &&
    !line.startsWith(state.reason === "completed" ? "Completed in " : `Ended: ${state.reason}`)
  )
    found.push(`the status line says ${JSON.stringify(line)} after a run that ended ${state.reason}`);
  return found;
}

const page: RunViewInvariantsPage = {
  async check(runs) {
    const result = await fc.check(
      fc.asyncProperty(
        plans,
        fc.array(fc.constantFrom<Answer>("approve", "edit", "deny", "replan", "stop"), { maxLength: 4 }),
        fc.integer({ min: 0, max: 1 }),
        async (plan, answers, maxReplans) => {
          const model = liveRunModel(plan);
          const runtime = new AgentRuntime({
            planner: new LLMPlanner({ model }),
            registry,
            memory: false,
            reflector: noOpReflector,
            integrate: "template",
            retries: 0,
            maxReplans,
            policy: { note: { approval: "plan" }, mail: { approval: "step" } },
            // A decision the card failed to send ends the run in time instead of holding the test.
            approvalTimeoutMs: 5_000,
          });
          const store = createRunStore(runtime.run("Note the facts"));
          view.store = store;
          const found: string[] = [];
          const queue = [...answers];
          const answered = new Set<string>();
          let stopped = false;
          store.subscribe(() => {
            for (const problem of disagreements(store, stopped))
              found.push(`after ${store.events.length} events: ${problem}`);
            const state = store.getSnapshot();
            for (const stepId of state.awaitingApproval) {
              // A step is asked again, in a new request, when its resolved arguments differ from those shown.
              const request = `${state.steps.find((step) => step.step.id === stepId)?.approval?.requestId}:${stepId}`;
              if (answered.has(request)) continue;
              answered.add(request);
              const answer = queue.shift() ?? "approve";
              // The person answers a moment later, as a person does: on the card, or Stop.
              setTimeout(() => {
                const card = inner("plankit-approval");
                if (answer === "stop") {
                  stopped = true;
                  view.shadowRoot?.querySelector<HTMLButtonElement>("[part=stop-button]")?.click();
                } else if (answer === "replan") {
                  void store.approve({ stepId, approved: false, replan: true }).catch(() => undefined);
                } else if (answer === "deny") {
                  card?.querySelector<HTMLButtonElement>(`[data-deny="${stepId}"]`)?.click();
                } else {
                  const field = card?.querySelector<HTMLTextAreaElement>(`#arguments-${stepId}`);
                  if (answer === "edit" && field) field.value = JSON.stringify({ text: "edited" });
                  card?.querySelector<HTMLButtonElement>(`[data-approve="${stepId}"]`)?.click();
                }
              }, 0);
            }
          });
          await store.done;
          await new Promise((resolve) => setTimeout(resolve, 0));
          for (const problem of disagreements(store, stopped)) found.push(`at the end: ${problem}`);
          if (found.length > 0) throw new Error(found.slice(0, 5).join("\n"));
        },
      ),
      { numRuns: runs },
    );
    return result.failed ? `${fc.defaultReportMessage(result) ?? "failed"}\n${String(result.errorInstance)}` : "";
  },
};
(globalThis as { runViewInvariants?: RunViewInvariantsPage }).runViewInvariants = page;
