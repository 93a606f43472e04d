/**
 * Runs the apps under `examples/`: each is its own project (its own
 * `package.json` and `package-lock.json`) that installs the package from the
 * checkout, so each gets `npm ci` when it has no install of the current
 * lockfile and package yet, then `npm test`.
 *
 * @module
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, delimiter, join } from "node:path";

/** How one example went. */
export interface ExampleResult {
  /** The folder's name under `examples/`. */
  name: string;
  /** Whether `npm ci` ran (the install was missing or out of date). */
  installed: boolean;
  /** Whether the install and the tests passed. */
  ok: boolean;
  /** What failed, naming the example and the command. */
  problem?: string;
  /** Install and tests, in milliseconds. */
  durationMs: number;
}

/** No example may take longer than this, install and tests together. */
const exampleTimeoutMs = 10 * 60_000;

/** Where an example records what its `node_modules` was installed from. */
const stampFile = join("node_modules", ".plankit-install");

/**
 * The examples' folders: every folder of `examples/` with a `package.json`.
 *
 * @param root - the repository root.
 * @returns the folder names, sorted.
 */
function listExamples(root: string): string[] {
  const directory = join(root, "examples");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => existsSync(join(directory, name, "package.json")))
    .sort();
}

/**
 * Hashes the files of a folder, recursively, by path and content.
 *
 * @param hash - the hash to update.
 * @param directory - the folder.
 * @param prefix - the folder's path in the hash.
 */
function hashTree(hash: ReturnType<typeof createHash>, directory: string, prefix: string): void {
  for (const name of readdirSync(directory).sort()) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) hashTree(hash, path, `${prefix}${name}/`);
    else hash.update(`${prefix}${name}\0`).update(readFileSync(path)).update("\0");
  }
}

/**
 * What an example's install depends on: its lockfile and `.npmrc`, and the
 * package it copies from the checkout (`package.json` and the built `dist/`).
 *
 * @param root - the repository root.
 * @param example - the example's folder.
 * @returns a hex digest.
 */
function installStamp(root: string, example: string): string {
  const hash = createHash("sha256");
  for (const file of [join(example, "package-lock.json"), join(example, ".npmrc"), join(root, "package.json")])
    hash.update(existsSync(file) ? readFileSync(file) : "").update("\0");
  hashTree(hash, join(root, "dist"), "dist/");
  return hash.digest("hex");
}

/**
 * Runs a command in a folder, its output shown as it comes; kills its
 * process group when it outlives the deadline.
 *
 * @param command - the program.
 * @param args - its arguments.
 * @param cwd - where it runs.
 * @param env - its environment.
 * @param deadline - when to give up (a `Date.now()` value).
 * @returns the exit code (`124` when killed at the deadline).
 */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, deadline: number): Promise<number> {
  return new Promise((resolve) => {
    // Its own process group, so that a timeout or an interrupt also ends the servers its tests start.
    const child = spawn(command, args, { cwd, env, stdio: "inherit", detached: true });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const interrupt = (): void => {
      killGroup();
      process.exit(130);
    };
    process.once("SIGINT", interrupt).once("SIGTERM", interrupt);
    const finish = (code: number): void => {
      clearTimeout(timer);
      process.off("SIGINT", interrupt).off("SIGTERM", interrupt);
      resolve(code);
    };
    const timer = setTimeout(
      () => {
        killGroup();
        finish(124);
      },
      Math.max(0, deadline - Date.now()),
    );
    child.on("exit", (code, signal) => finish(code ?? (signal === null ? 1 : 128)));
    child.on("error", () => finish(1));
  });
}

/**
 * Builds the package, then installs (when needed) and tests each example in
 * turn, with the checkout's `node_modules/.bin` first on the `PATH` (Node 22,
 * Deno).
 *
 * @param root - the repository root.
 * @param names - the examples to run; all of them when empty.
 * @returns one result per example, in order.
 * @example
 * ```ts
 * const results = await runExamples(root);
 * if (results.some((result) => !result.ok)) process.exitCode = 1;
 * ```
 */
export async function runExamples(root: string, names: string[] = []): Promise<ExampleResult[]> {
  const all = listExamples(root);
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`No example named ${unknown.join(", ")} (examples/: ${all.join(", ")})`);
  // The examples install the package from the checkout: they need dist/ as `npm run build` makes it.
  try {
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  } catch {
    console.log("npm run build FAILED: the examples need the built package, none ran.");
    return [];
  }
  const env = {
    ...process.env,
    PATH: [join(root, "node_modules", ".bin"), process.env["PATH"] ?? ""].join(delimiter),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // npm itself, run by this Node when npm started the script; else the `npm` on the PATH.
  const npm = process.env["npm_execpath"];
  const [command, prefix] =
    npm !== undefined && basename(npm) === "npm-cli.js" ? [process.execPath, [npm]] : ["npm", []];
  const results: ExampleResult[] = [];
  for (const name of names.length > 0 ? names : all) {
    const started = Date.now();
    const deadline = started + exampleTimeoutMs;
    const directory = join(root, "examples", name);
    const stamp = installStamp(root, directory);
    const stampPath = join(directory, stampFile);
    const current = existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp;
    const result: ExampleResult = { name, installed: !current, ok: false, durationMs: 0 };
    results.push(result);
    console.log(`\n--- examples/${name} ---\n`);
    if (!current) {
      const args = [...prefix, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
      const code = await run(command, args, directory, env, deadline);
      if (code !== 0) {
        result.problem = `examples/${name}: npm ci exited with ${code}${code === 124 ? " (timed out)" : ""}`;
        result.durationMs = Date.now() - started;
        continue;
      }
      writeFileSync(stampPath, stamp);
    }
    const code = await run(command, [...prefix, "test"], directory, env, deadline);
    result.durationMs = Date.now() - started;
    if (code === 0) result.ok = true;
    else {
      const rerun = `npx node scripts/test-examples.ts ${name}`;
      result.problem = `examples/${name}: npm test exited with ${code}${code === 124 ? " (timed out)" : ""}; rerun: ${rerun}`;
    }
  }
  return results;
}

/**
 * Prints one line per example and every problem.
 *
 * @param results - what {@link runExamples} returned.
 * @returns whether every example passed.
 */
export function printExampleResults(results: ExampleResult[]): boolean {
  console.log("\nexample           install   result   time");
  for (const result of results) {
    const install = (result.installed ? "npm ci" : "current").padEnd(10);
    const outcome = (result.ok ? "passed" : "FAILED").padEnd(9);
    console.log(`${result.name.padEnd(18)}${install}${outcome}${(result.durationMs / 1000).toFixed(1)}s`);
  }
  for (const result of results) if (result.problem !== undefined) console.log(result.problem);
  const ok = results.length > 0 && results.every((result) => result.ok);
  if (results.length === 0) console.log("No examples ran.");
  return ok;
}
