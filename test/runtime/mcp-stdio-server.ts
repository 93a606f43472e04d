/**
 * Spawns a real MCP server from node_modules over stdio with the official SDK
 * client, records what the client sends it, and stops it by its pid.
 *
 * @module
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolCaller } from "../../src/tools.ts";

const require = createRequire(import.meta.url);

/** A running server and what the client sent it. */
export interface McpStdioServer {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Every JSON-RPC message the client wrote to the server's stdin, in order. */
  readonly sent: JSONRPCMessage[];
  /** Every JSON-RPC message the server wrote to its stdout, in order. */
  readonly received: JSONRPCMessage[];
  /**
   * The `tools/call` requests the server received for `name` (all tools without one).
   *
   * @param name - a tool name.
   * @returns their arguments, in order.
   */
  callsOf(name?: string): Record<string, unknown>[];
  /** `tools/call` through the SDK client, with the step's signal; `onprogress` asks the server for progress. */
  caller(onprogress?: (progress: { progress: number; total?: number | undefined }) => void): McpToolCaller;
  /** Closes the client, then ends the process by its pid if it is still there, and waits until it is gone. */
  stop(): Promise<void>;
}

/**
 * The file a package's `bin` points at.
 *
 * @param manifestPath - the package's resolved `package.json`.
 * @returns its absolute path.
 */
function binOf(manifestPath: string): string {
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${manifestPath} has no bin`);
  return join(manifestPath, "..", bin);
}

/**
 * Whether a process is alive.
 *
 * @param pid - its id.
 * @returns the check.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Spawns the server with the Node that runs the tests and connects a client.
 *
 * @param manifestPath - the server package's resolved `package.json` (resolved by the caller, so the dependency shows).
 * @param args - its command-line arguments.
 * @param env - extra environment variables.
 * @returns the server.
 */
export async function startMcpServer(
  manifestPath: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<McpStdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf(manifestPath), ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    sent.push(message);
    return send(message);
  };
  const client = new Client({ name: "plankit-test", version: "1.0.0" });
  const stop = async (): Promise<void> => {
    const pid = transport.pid;
    await client.close().catch(() => undefined);
    if (pid === null) return;
    if (isAlive(pid)) process.kill(pid, "SIGKILL");
    for (let wait = 0; wait < 100 && isAlive(pid); wait++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await stop();
    throw error;
  }
  const received: JSONRPCMessage[] = [];
  const onmessage = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage): void => {
    received.push(message);
    onmessage?.(message);
  };
  return {
    client,
    transport,
    sent,
    received,
    callsOf(name) {
      return sent.flatMap((message) => {
        if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return [];
        const params = message.params as { name: string; arguments?: Record<string, unknown> };
        return name === undefined || params.name === name ? [params.arguments ?? {}] : [];
      });
    },
    caller(onprogress) {
      return (name, args, { signal }) =>
        client.callTool({ name, arguments: args }, undefined, {
          ...(signal === undefined ? {} : { signal }),
          ...(onprogress === undefined ? {} : { onprogress }),
        });
    },
    stop,
  };
}
