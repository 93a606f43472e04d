/**
 * Runs the benchmarks: every `test/bench/*.bench.ts` module, or only those
 * whose file name contains one of the arguments, in file-name order. Prints
 * each module's markdown section and writes them all to `.tmp/bench.md`.
 *
 *     npm run bench
 *     npm run bench -- json
 *
 * A module that throws (a parser whose output is wrong, say) is reported and
 * makes the exit code 1; the others still run.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

interface BenchModule {
  run(): Promise<string>;
}

const directory = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));
const filters = process.argv.slice(2).map((argument) => argument.toLowerCase());
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.toLowerCase().includes(filter)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${filters.map((filter) => JSON.stringify(filter)).join(", ")} in ${directory}`);
  process.exit(1);
}

/** The commit measured, and whether the working tree differed from it. */
function describeRevision(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const changed = execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: root, encoding: "utf8" }).trim() !== "";
    return `commit ${commit}${changed ? " with uncommitted changes in src/" : ""}`;
  } catch {
    return "commit unknown";
  }
}

const machine = `Node ${process.version} on ${process.platform}/${process.arch}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${cpus().length}`;
const gc = typeof globalThis.gc === "function" ? "GC exposed" : "GC not exposed (run with --expose-gc for steadier figures)";
const sections: string[] = [`# Benchmarks\n\n${new Date().toISOString().slice(0, 10)}, ${describeRevision()}, ${machine}, ${gc}.\n`];
console.log(sections[0]);

let failed = false;
for (const file of files) {
  const started = performance.now();
  console.error(`running ${file}...`);
  try {
    const module = (await import(pathToFileURL(`${directory}${file}`).href)) as BenchModule;
    const section = await module.run();
    sections.push(section);
    console.log(section);
    console.error(`${file}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    failed = true;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    sections.push(`## ${file}\n\n**Failed:**\n\n\`\`\`\n${message}\n\`\`\`\n`);
    console.error(`${file} FAILED:\n${message}`);
  }
}

mkdirSync(`${root}.tmp`, { recursive: true });
writeFileSync(`${root}.tmp/bench.md`, sections.join("\n"));
console.error(`wrote ${root}.tmp/bench.md`);
process.exitCode = failed ? 1 : 0;
