import { describe, expect, it } from "vitest";
import { createRunStore, defineRunElements } from "../../src/ui.ts";

describe("importing plankit/ui", () => {
  it("defines the elements only where custom elements exist, and a second definition is harmless", () => {
    const hasElements =
      typeof globalThis.customElements !== "undefined" && typeof globalThis.HTMLElement !== "undefined";
    expect(defineRunElements()).toBe(hasElements);
    expect(defineRunElements()).toBe(hasElements);
    if (hasElements) {
      for (const name of ["plankit-run", "plankit-plan-graph", "plankit-steps", "plankit-approval", "plankit-reply"]) {
        expect(customElements.get(name), name).toBeDefined();
      }
    }
  });

  it("leaves the store usable without a DOM", async () => {
    const store = createRunStore(
      new Response('{"type":"plan-start","runId":"r","t":0,"kind":"plan","query":"q","attempt":1}\n'),
    );
    expect((await store.done).query).toBe("q");
  });
});
