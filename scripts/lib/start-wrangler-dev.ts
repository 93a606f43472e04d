/**
 * Starts `wrangler dev` for tests and benchmarks, and waits until it serves.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { wranglerEnvironment } from "./wrangler-environment.ts";

/** A running `wrangler dev`. */
export interface WranglerDev {
  /** The base URL, e.g. `http://127.0.0.1:51234`. */
  url: string;
  /** Everything wrangler printed so far. */
  output(): string;
  /** Stops wrangler (and the runtime it started). */
  stop(): Promise<void>;
}

/**
 * Finds a free TCP port on 127.0.0.1.
 *
 * @returns the port.
 * @example
 * ```ts
 * const port = await findFreePort();
 * ```
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Stops a child process group: SIGTERM, then SIGKILL after `graceMs`.
 *
 * @param child - the process (spawned detached, so it leads its group).
 * @param graceMs - how long to wait before SIGKILL.
 * @returns when it exited.
 */
function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/**
 * Starts `wrangler dev` on a free port of 127.0.0.1 (offline, metrics off;
 * see `wranglerEnvironment`) and resolves once `GET /health` answers. The
 * web demo must already be built. Extra `vars` become `--var` arguments.
 *
 * @param root - the repository root.
 * @param options - `vars`, extra wrangler `args`, and the start-up `timeoutMs` (default 60 s).
 * @returns the running server.
 * @example
 * ```ts
 * const server = await startWranglerDev(root, { vars: { PLANKIT_DEMO_TOKENS_PER_SECOND: "200" } });
 * try { await fetch(`${server.url}/health`); } finally { await server.stop(); }
 * ```
 */
export async function startWranglerDev(
  root: string,
  options: { vars?: Record<string, string>; args?: string[]; timeoutMs?: number } = {},
): Promise<WranglerDev> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [
    wrangler,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(await findFreePort()),
    "--log-level",
    "warn",
  ];
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
  args.push(...(options.args ?? []));
  let output = "";
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...wranglerEnvironment(), CI: "1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const server: WranglerDev = { url, output: () => output, stop: () => stopProcess(child, 5000) };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`wrangler dev did not answer ${url}/health within ${options.timeoutMs ?? 60_000} ms:\n${output}`);
}
