import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const entry = process.argv[2];
const r = await build({ stdin: { contents: entry, resolveDir: ".", loader: "ts" }, bundle: true, minify: true, write: false, format: "esm", metafile: true });
for (const [k, v] of Object.entries(r.metafile.outputs)) for (const [f, i] of Object.entries(v.inputs)) console.log(i.bytesInOutput, f);
