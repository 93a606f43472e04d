/**
 * Starts the server under Node, and under Deno and Bun when they are on the
 * PATH, posts a request to /run and reads the Server-Sent Events it streams.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, test } from "node:test";

const started: ChildProcess[] = [];
after(() => {
  for (const child of started) if (child.exitCode === null) child.kill();
});

function onPath(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Starts a server and resolves once it prints that it listens. */
async function start(command: string, args: string[]): Promise<string> {
  const port = await freePort();
  const child = spawn(command, args, {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start within 30 s:\n${output}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("listening on")) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
}

/** The events of an SSE body, each `event:` with its parsed `data:`. */
function readEvents(text: string): { event: string; data: { type: string; [key: string]: unknown } }[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "";
      const data = JSON.parse(lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "null");
      return { event, data };
    });
}

async function checkRun(base: string): Promise<void> {
  const response = await fetch(`${base}/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "What is 21 * 2 + 5?" }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const events = readEvents(await response.text());
  for (const { event, data } of events) assert.equal(event, data.type);
  const types = events.map(({ data }) => data.type);
  assert.ok(types.indexOf("step-start") < types.indexOf("step-end"), types.join(","));
  const results = events
    .filter(({ data }) => data.type === "step-end")
    .map(({ data }) => [data["stepId"], data["result"]]);
  assert.deepEqual(results, [
    ["s1", { product: 42 }],
    ["s2", { sum: 47 }],
    ["s3", "21 * 2 + 5 = 47"],
  ]);
  assert.equal(events.find(({ data }) => data.type === "reply")?.data["text"], "21 * 2 + 5 = 47");
  const end = events.at(-1)?.data;
  assert.equal(end?.type, "run-end");
  assert.equal(end?.["reason"], "completed");

  const bad = await fetch(`${base}/run`, { method: "POST", body: "{}" });
  assert.equal(bad.status, 400);
}

test("Node serves /run as Server-Sent Events", async () => {
  await checkRun(await start(process.execPath, ["src/server-node.ts"]));
});

// Deno and Bun run the app where they are installed (`npm test` at the repository's root has Deno on the PATH).
if (onPath("deno"))
  test("Deno serves the same app", async () => {
    await checkRun(await start("deno", ["run", "--allow-net", "--allow-env", "--allow-read", "src/server-deno.ts"]));
  });
else console.log("deno is not on the PATH: the app did not run under Deno");

if (onPath("bun"))
  test("Bun serves the same app", async () => {
    await checkRun(await start("bun", ["src/server-bun.ts"]));
  });
else console.log("bun is not on the PATH: the app did not run under Bun");
