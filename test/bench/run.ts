/**
 * Runs the benchmarks: every `test/bench/*.bench.ts` module, or only those
 * whose file name contains one of the arguments, in file-name order. Prints
 * each module's markdown section and writes them all to `.tmp/bench.md`.
 *
 *     npm run bench
 *     npm run bench -- json
 *     npm run bench -- --help      lists the benchmarks
 *
 * While a module runs, a line every 15 s says which and for how long.
 *
 * A module that throws (a parser whose output is wrong, say) is reported and
 * makes the exit code 1; the others still run.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

interface BenchModule {
  run(): Promise<string>;
}

const directory = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));
const all = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();

/**
 * The first sentence of a benchmark module's doc comment.
 *
 * @param file - the module's file name.
 * @returns the sentence, on one line.
 */
function summaryOf(file: string): string {
  const comment = /^\/\*\*([\s\S]*?)\*\//u.exec(readFileSync(`${directory}${file}`, "utf8"))?.[1] ?? "";
  const text = comment
    .replace(/^\s*\*\s?/gmu, "")
    .replace(/\s+/gu, " ")
    .trim();
  const sentence = /^(.+?\.)(?:\s|$)/u.exec(text)?.[1] ?? text;
  return sentence.length > 110 ? `${sentence.slice(0, 109)}…` : sentence;
}

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log("Usage: npm run bench [-- <name>…]   runs every benchmark, or those whose file name contains a <name>;");
  console.log(
    "                                    writes the results to .tmp/bench.md. npm run bench:worker loads the Worker.\n",
  );
  for (const file of all) console.log(`  ${file.replace(/\.bench\.ts$/u, "").padEnd(16)} ${summaryOf(file)}`);
  process.exit(0);
}

const filters = process.argv.slice(2).map((argument) => argument.toLowerCase());
const files = all.filter(
  (name) => filters.length === 0 || filters.some((filter) => name.toLowerCase().includes(filter)),
);

if (files.length === 0) {
  console.error(`No benchmark matches ${filters.map((filter) => JSON.stringify(filter)).join(", ")} in ${directory}`);
  process.exit(1);
}

/** The commit measured, and whether the working tree differed from it. */
function describeRevision(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const changed =
      execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: root, encoding: "utf8" }).trim() !== "";
    return `commit ${commit}${changed ? " with uncommitted changes in src/" : ""}`;
  } catch {
    return "commit unknown";
  }
}

const machine = `Node ${process.version} on ${process.platform}/${process.arch}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${cpus().length}`;
const gc =
  typeof globalThis.gc === "function" ? "GC exposed" : "GC not exposed (run with --expose-gc for steadier figures)";
const sections: string[] = [
  `# Benchmarks\n\n${new Date().toISOString().slice(0, 10)}, ${describeRevision()}, ${machine}, ${gc}.\n`,
];
console.log(sections[0]);

let failed = false;
for (const file of files) {
  const started = performance.now();
  console.error(`running ${file}...`);
  // A heartbeat while a module runs; modules that time in child processes keep the event loop free for it.
  const heartbeat = setInterval(
    () => console.error(`  still running ${file} (${Math.round((performance.now() - started) / 1000)} s)`),
    15_000,
  );
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
  } finally {
    clearInterval(heartbeat);
  }
}

mkdirSync(`${root}.tmp`, { recursive: true });
writeFileSync(`${root}.tmp/bench.md`, sections.join("\n"));
console.error(`wrote ${root}.tmp/bench.md`);
process.exitCode = failed ? 1 : 0;
