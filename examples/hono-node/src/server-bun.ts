import { app } from "./app.ts";

const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env["PORT"] ?? 3000), fetch: app.fetch });
console.log(`listening on http://127.0.0.1:${server.port}`);
