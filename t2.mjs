import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const r = await build({ stdin: { contents: 'export { AgentRuntime, LLMPlanner, ToolRegistry } from "./src/index.ts";', resolveDir: ".", loader: "ts" }, bundle: true, minify: true, write: false, format: "esm", platform: "browser" });
const code = r.outputFiles[0].text;
console.log(code.includes("#settleAgain"), (code.match(/#[a-zA-Z]{6,}/g)||[]).length);
const strings = code.match(/`[^`]{40,}`|"[^"]{40,}"/g) || [];
console.log("long strings", strings.length, strings.reduce((a,s)=>a+s.length,0));
console.log(gzipSync(code,{level:9}).length);
