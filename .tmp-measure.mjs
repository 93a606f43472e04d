import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const [dir, entry, ...external] = process.argv.slice(2);
const r = await build({ stdin: { contents: entry, resolveDir: dir, loader: "ts" }, bundle: true, minify: true, write: false, format: "esm", external });
const code = r.outputFiles[0].contents;
console.log((code.length/1024).toFixed(2), "KiB min", (gzipSync(code).length/1024).toFixed(2), "KiB gz");
