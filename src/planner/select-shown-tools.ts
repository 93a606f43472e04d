/**
 * The tools a planning prompt shows.
 *
 * @module
 */
import { PlankitError } from "../errors/plankit-error.ts";
import type { CompiledCatalog } from "../tools/compile-catalog.ts";
import type { ToolDescriptor } from "../tools/tool-descriptor.ts";
import type { PlannerSetup } from "./read-planner-options.ts";

/**
 * Selects the tools to show for a request.
 *
 * @param setup - the planner's `select` function and `topK`.
 * @param query - the request.
 * @param catalog - the compiled catalog.
 * @returns every tool, or the top-K the `select` option picked.
 * @throws PlankitError `invalid-options` when the selector returns something else than tools of the catalog.
 */
export async function selectShownTools(
  setup: Pick<PlannerSetup, "select" | "topK">,
  query: string,
  catalog: CompiledCatalog,
): Promise<ToolDescriptor[]> {
  if (setup.select === undefined) return [...catalog.tools];
  const picked: unknown = await setup.select(query, catalog, setup.topK);
  if (!Array.isArray(picked))
    throw new PlankitError(
      "invalid-options",
      `The select function returned ${picked === null ? "null" : typeof picked}, not an array of tools`,
    );
  return picked.map((tool: unknown, index) => {
    const name = typeof tool === "object" && tool !== null ? (tool as { name?: unknown }).name : undefined;
    const known = typeof name === "string" ? catalog.get(name) : undefined;
    if (known === undefined)
      throw new PlankitError(
        "invalid-options",
        `The select function returned, at index ${index}, ${typeof name === "string" ? `tool "${name}", which is not in the catalog` : "something that is not a tool"}`,
      );
    return known;
  });
}
