import { app } from "./app.ts";

const port = Number(Deno.env.get("PORT") ?? 3000);
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`listening on http://127.0.0.1:${port}`) },
  app.fetch,
);
