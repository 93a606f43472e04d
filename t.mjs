import { build } from "esbuild";
const r = await build({ stdin: { contents: 'export { AgentRuntime, LLMPlanner, ToolRegistry } from "./src/index.ts";', resolveDir: ".", loader: "ts" }, bundle: true, minify: true, write: false, format: "esm", platform: "browser", metafile: true });
const inputs = Object.entries(Object.values(r.metafile.outputs)[0].inputs).map(([k, v]) => [k, v.bytesInOutput]).sort((a, b) => b[1] - a[1]);
for (const [k,b] of inputs.slice(0,70)) console.log(String(b).padStart(6), k);
