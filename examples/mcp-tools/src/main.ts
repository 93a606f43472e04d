/**
 * Plans over the tools of a real MCP server: the filesystem server from npm,
 * started over stdio and given one directory. The plan lists the directory,
 * reads a file, writes a copy of it and replies with what it found.
 *
 *     npm start -- <directory>        (or: node src/main.ts <directory>)
 */
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AgentRuntime, LLMPlanner, ToolRegistry } from "plankit";
import { createScriptedModel } from "plankit/test";
import { fromMcpTools } from "plankit/tools";

const usage = "Usage: npm start -- <directory>   (the directory must hold notes.txt; the plan writes notes-copy.txt)";
const given = process.argv[2];
if (given === undefined || given === "") {
  console.error(`No directory given.\n${usage}`);
  process.exit(2);
}
const directory = resolve(given);
if (!statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`"${given}" is not a directory (resolved to ${directory}).\n${usage}`);
  process.exit(2);
}
const server = join(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/package.json"),
  "..",
  "dist",
  "index.js",
);
const transport = new StdioClientTransport({ command: process.execPath, args: [server, directory], stderr: "ignore" });
const client = new Client({ name: "plankit-example", version: "1.0.0" });
await client.connect(transport);

try {
  const registry = new ToolRegistry().register(
    fromMcpTools(await client.listTools(), (name, args, { signal }) =>
      client.callTool({ name, arguments: args }, undefined, signal === undefined ? {} : { signal }),
    ),
  );
  // Offline: a scripted model writes the plan over the server's tools. Use any model for real requests.
  const plan = [
    { id: "s1", tool: "list_directory", args: { path: directory } },
    { id: "s2", tool: "read_text_file", args: { path: join(directory, "notes.txt") } },
    { id: "s3", tool: "write_file", args: { path: join(directory, "notes-copy.txt"), content: "{{s2.content}}" } },
    { id: "s4", reply: "The directory holds:\n{{s1.content}}\nnotes.txt says: {{s2.content}}" },
  ];
  const model = createScriptedModel({ responses: { plan: [JSON.stringify(plan)] } });
  const runtime = new AgentRuntime({ planner: new LLMPlanner({ model }), registry });
  for await (const event of runtime.run("What is in this directory, and keep a copy of the notes")) {
    if (event.type === "step-start") console.error(`${event.stepId} started`);
    if (event.type === "step-error") console.error(`${event.stepId} failed: ${event.error.message}`);
    if (event.type === "reply") console.log(event.text);
    if (event.type === "run-end" && event.reason !== "completed") process.exitCode = 1;
  }
} finally {
  // Closing the client ends the server process it started.
  await client.close();
}
