import { createJsonStreamParser } from "../src/json/create-json-stream-parser.ts";
for (const opts of [{ prose: false }, {}, { prose: false, unwrapKeys: ["steps"] }]) {
  const p = createJsonStreamParser(opts);
  p.write('[{"text":"x');
  console.log(JSON.stringify(opts), p.partialString(), (p as any).speculating, (p as any).emitDepth, (p as any).depth, (p as any).mode);
}
