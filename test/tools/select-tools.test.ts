import { describe, expect, it } from "vitest";
import { findIdentifierProviders } from "../../src/tools/find-identifier-providers.ts";
import type { ToolDescriptor } from "../../src/tools.ts";
import {
  compileCatalog,
  createEmbeddingRetriever,
  fuseRankings,
  rankTools,
  selectTools,
  type ToolScore,
  tokenizeText,
} from "../../src/tools.ts";
import { catalog, chineseCases, coUsageGraph, englishCases, heldOutCases } from "../fixtures/tools/catalog.ts";

function names(tools: readonly ToolDescriptor[]): string[] {
  return tools.map((tool) => tool.name);
}

function tool(name: string, description = "", properties: Record<string, unknown> = {}): ToolDescriptor {
  return { name, description, inputSchema: { type: "object", properties } };
}

describe("tokenizeText", () => {
  it("splits names on _ . - / and camelCase, keeping humped words whole too", () => {
    expect(tokenizeText("send_email")).toEqual(["send", "email"]);
    expect(tokenizeText("fs.readFile")).toEqual(["fs", "read", "fil", "readfil"]);
    expect(tokenizeText("HTTPRequest")).toEqual(["http", "request", "httprequest"]);
    expect(tokenizeText("arXiv")).toEqual(["ar", "xiv", "arxiv"]);
  });

  it("drops stop words and bare numbers, and stems lightly", () => {
    expect(tokenizeText("Find the 2 latest searches for files")).toEqual(["find", "latest", "search", "fil"]);
    expect(tokenizeText("reminder remind")).toEqual(["remind", "remind"]);
    expect(tokenizeText("calculator calculate computing")).toEqual(["calculat", "calculat", "comput"]);
    expect(tokenizeText("queries query")).toEqual(["query", "query"]);
  });

  it("keeps bare numbers when asked, as they are, and still drops stop words", () => {
    expect(tokenizeText("Find the 2 latest searches for order 48213", { keepNumbers: true })).toEqual([
      "find",
      "2",
      "latest",
      "search",
      "order",
      "48213",
    ]);
    expect(tokenizeText("订单51007", { keepNumbers: true })).toEqual(["订单", "订", "单", "51007"]);
  });

  it("gives Chinese runs their bigrams and content characters", () => {
    expect(tokenizeText("查询天气")).toEqual(["查询", "询天", "天气", "查", "询", "天", "气"]);
    expect(tokenizeText("我的订单")).toEqual(["我的", "的订", "订单", "订", "单"]);
    expect(tokenizeText("在 arXiv 找论文")).toEqual(["ar", "xiv", "arxiv", "找论", "论文", "找", "论", "文"]);
    expect(tokenizeText("用arXiv找论文")).toEqual(["用", "ar", "xiv", "arxiv", "找论", "论文", "找", "论", "文"]);
  });
});

describe("rankTools", () => {
  const tools = [
    tool("get_weather", "Current weather for a city", { city: { type: "string" } }),
    tool("weather_history", "Past measurements"),
    tool("send_email", "Send a message", { to: { type: "string", description: "recipient address" } }),
    tool("express_tracking", "快递物流查询:根据运单号查询包裹的物流轨迹"),
  ];

  it("ranks by BM25 over name, description and parameters, names weighing most", () => {
    expect(rankTools("weather in Paris", tools).map((item) => item.name)).toEqual(["get_weather", "weather_history"]);
    expect(rankTools("who is the recipient", tools).map((item) => item.name)).toEqual(["send_email"]);
    const [first, second] = rankTools("weather", tools);
    expect((first?.score ?? 0) > (second?.score ?? 0)).toBe(true);
  });

  it("matches Chinese against Chinese, and across languages through the glossary", () => {
    expect(rankTools("查一下我的快递到哪了", tools)[0]?.name).toBe("express_tracking");
    expect(rankTools("北京天气", tools)[0]?.name).toBe("get_weather");
    expect(rankTools("track my package", tools)[0]?.name).toBe("express_tracking");
    expect(rankTools("北京天气", tools, { synonyms: false })).toEqual([]);
    expect(rankTools("北京天气", tools, { synonyms: { 天气: "measurements" } }).map((item) => item.name)).toEqual([
      "weather_history",
    ]);
  });

  it("normalizes each field by its own length, so long parameter descriptions do not bury a name match", () => {
    const words = "an identifier taken from the results of another lookup in the same collection ".repeat(10);
    const described = Object.fromEntries(
      Array.from({ length: 12 }, (_, at) => [`field_${at}`, { type: "string", description: words }]),
    );
    const tools = [
      tool("FlightSearch", "Available routes.", described),
      tool("airport_lookup", "Finds the airport nearest a flight's city"),
      tool("currency_rates", "Rates"),
    ];
    expect(rankTools("flight", tools).map((item) => item.name)).toEqual(["FlightSearch", "airport_lookup"]);
  });

  it("reads what a tool returns as a weaker field than what it takes", () => {
    const counter = {
      ...tool("PostsReels", "Posts of an account", { user_id: { type: "string" } }),
      outputSchema: {
        type: "object",
        properties: { play_count: { type: "integer", description: "How many times a reel was played" } },
      },
    };
    const tools = [
      counter,
      tool("user_search", "Finds an account"),
      tool("plays", "Lists plays", { play_count: { type: "integer" } }),
    ];
    expect(rankTools("number of plays", tools).map((item) => item.name)).toEqual(["plays", "PostsReels"]);
  });

  it("returns nothing for a query without matches, and ties in catalog order", () => {
    expect(rankTools("", tools)).toEqual([]);
    expect(rankTools("zzz qqq", tools)).toEqual([]);
    const twins = [tool("b_tool", "shared words"), tool("a_tool", "shared words")];
    expect(rankTools("shared words", twins).map((item) => item.name)).toEqual(["b_tool", "a_tool"]);
  });
});

describe("selectTools", () => {
  it("rejects a k that is not an integer >= 0, naming the value", () => {
    for (const k of [-1, 2.5, Number.NaN]) {
      expect(() => selectTools("weather", catalog, { k })).toThrow(
        `Option k must be an integer >= 0, got ${String(k)}`,
      );
    }
    expect(selectTools("weather", catalog, { k: 0 })).toEqual([]);
  });

  it("returns at most k tools in MCP shape, best first", () => {
    const selected = selectTools("Search arXiv for papers on LLM agents", catalog, { k: 3 });
    expect(selected.length).toBeLessThanOrEqual(3);
    expect(selected[0]).toEqual(catalog.find((item) => item.name === "arxiv_search"));
  });

  it("gives the whole catalog, best first, when it has at most k tools", () => {
    const small = [tool("a", "alpha"), tool("b", "beta"), tool("c", "gamma")];
    expect(names(selectTools("gamma", small))).toEqual(["c", "a", "b"]);
  });

  it("lets partners of strong hits take the slots nothing matched (collaborative expansion)", () => {
    const query = "Cheapest flight from Boston to Denver on June 3";
    expect(names(selectTools(query, catalog, { k: 4 }))).toEqual(["flight_search", "train_ticket_search"]);
    expect(names(selectTools(query, catalog, { k: 4, graph: coUsageGraph }))).toEqual([
      "flight_search",
      "train_ticket_search",
      "hotel_search",
      "get_weather_forecast",
    ]);
    expect(names(selectTools(query, catalog, { k: 3, graph: coUsageGraph }))).toEqual([
      "flight_search",
      "train_ticket_search",
      "hotel_search",
    ]);
  });

  it("lets a partner replace a weak hit only when the request matches it too, best ranked first", () => {
    const tools = [
      tool("flights", "search flights"),
      tool("trains", "search trains"),
      tool("buses", "search buses"),
      tool("hotels", "hotels near an airport, search by city"),
      tool("weather", "forecast"),
    ];
    expect(names(selectTools("search flights", tools, { k: 2 }))).toEqual(["flights", "trains"]);
    expect(names(selectTools("search flights", tools, { k: 2, graph: { flights: ["weather", "hotels"] } }))).toEqual([
      "flights",
      "hotels",
    ]);
    expect(names(selectTools("search flights", tools, { k: 2, graph: { flights: ["weather"] } }))).toEqual([
      "flights",
      "trains",
    ]);
    expect(names(selectTools("search flights", tools, { k: 2, graph: { flights: ["hotels", "buses"] } }))).toEqual([
      "flights",
      "buses",
    ]);
  });

  it("keeps strong hits, fills empty slots with partners and ignores unknown partners", () => {
    const tools = [
      tool("flights", "search flights"),
      tool("hotels", "rooms"),
      tool("weather", "forecast"),
      tool("cars", "rental"),
      tool("trains", "rail"),
      tool("news", "headlines"),
      tool("maps", "routes"),
    ];
    const graph = { flights: ["ghost", "hotels", "weather"] };
    expect(names(selectTools("search flights", tools, { k: 3, graph }))).toEqual(["flights", "hotels", "weather"]);
    expect(names(selectTools("search flights", tools, { k: 2, graph }))).toEqual(["flights", "hotels"]);
    expect(names(selectTools("search flights", tools, { k: 1, graph }))).toEqual(["flights"]);
  });

  it("brings along the tool that returns an identifier a strong hit requires", () => {
    const returns = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: "object", properties });
    const hotels = {
      ...tool("TravelSearchHotels", "Search hotels by location and dates", {
        geoId: { type: "string" },
        checkIn: { type: "string" },
      }),
      inputSchema: {
        type: "object",
        properties: { geoId: { type: "string" }, checkIn: { type: "string" } },
        required: ["geoId", "checkIn"],
      },
    };
    const tools = [
      hotels,
      {
        ...tool("TravelSearchLocation", "Look up a place", { query: { type: "string" } }),
        outputSchema: returns({ geoId: { type: "string" }, name: { type: "string" } }),
      },
      { ...tool("ForumTopPosts", "Top posts of a forum"), outputSchema: returns({ geoId: { type: "string" } }) },
      tool("restaurant_search", "Search restaurants by city"),
      tool("flight_search", "Search flights for dates"),
      tool("weather", "Weather of a city"),
    ];
    const query = "search hotels in Lisbon for May 3";
    expect(names(selectTools(query, tools, { k: 3 }))).toEqual([
      "TravelSearchHotels",
      "TravelSearchLocation",
      "restaurant_search",
    ]);
    expect(names(selectTools(query, tools, { k: 3, identifierProviders: false }))).toEqual([
      "TravelSearchHotels",
      "restaurant_search",
      "flight_search",
    ]);
  });

  it("fuses a retriever's ranking by reciprocal rank", () => {
    const retriever = (): ToolScore[] => [
      { name: "transcribe_audio", score: 0.9 },
      { name: "ghost", score: 0.8 },
    ];
    const selected = names(selectTools("turn the meeting recording into notes", catalog, { k: 3, retriever }));
    expect(selected).toContain("transcribe_audio");
    expect(selected).not.toContain("ghost");
  });

  it("returns a promise when the retriever is asynchronous", async () => {
    const retriever = async (): Promise<ToolScore[]> => [{ name: "generate_image", score: 1 }];
    const selected = selectTools("draw a cat astronaut", catalog, { k: 2, retriever });
    expect(selected).toBeInstanceOf(Promise);
    expect(names(await selected)).toContain("generate_image");
  });

  it("is deterministic across calls and catalog shapes", () => {
    const record = Object.fromEntries(
      catalog.map(({ name, description, inputSchema }) => [name, { description, input_schema: inputSchema }]),
    );
    for (const item of [...englishCases, ...chineseCases].slice(0, 30)) {
      const first = names(selectTools(item.query, catalog, { graph: coUsageGraph }));
      expect(names(selectTools(item.query, catalog, { graph: coUsageGraph }))).toEqual(first);
      expect(names(selectTools(item.query, record, { graph: coUsageGraph }))).toEqual(first);
    }
  });

  it("finds the needed tools for most fixture requests in English and Chinese", () => {
    const recallAt6 = (cases: typeof englishCases): number =>
      cases.reduce((sum, item) => {
        const chosen = new Set(names(selectTools(item.query, catalog, { k: 6 })));
        return sum + item.expected.filter((name) => chosen.has(name)).length / item.expected.length;
      }, 0) / cases.length;
    expect(recallAt6(englishCases)).toBeGreaterThan(0.75);
    expect(recallAt6(chineseCases)).toBeGreaterThan(0.85);
    expect(recallAt6(heldOutCases)).toBeGreaterThan(0.7);
    expect(
      names(selectTools("在 arXiv 找 2 篇 LLM agents 调研;再计算 21*2+5,最后给出中文总结。", catalog, { k: 6 })),
    ).toEqual(expect.arrayContaining(["arxiv_search", "calculator", "summarize_text"]));
  });

  it("handles thousands of tools with one index", () => {
    const big = Array.from({ length: 3000 }, (_, index) =>
      tool(
        `service_${index % 50}_action_${index}`,
        `Handles ${index % 7 === 0 ? "invoices" : "tickets"} for team ${index % 13}`,
      ),
    );
    big.push(tool("refund_invoice", "Refund a paid invoice"));
    expect(names(selectTools("refund an invoice", big, { k: 1 }))).toEqual(["refund_invoice"]);
    expect(selectTools("tickets", big, { k: 6 })).toHaveLength(6);
  });
});

describe("findIdentifierProviders", () => {
  const returns = (...names: string[]): ToolDescriptor["outputSchema"] => ({
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
  });
  const needs = (name: string, ...required: string[]): ToolDescriptor => ({
    name,
    description: "",
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(required.map((key) => [key, { type: "string" }])),
      required,
    },
  });

  it("links a required identifier to related tools that return it without needing it", () => {
    const tools = [
      needs("SkyFlightSearch", "originSkyId", "date", "id"),
      { ...needs("SkySearchAirport", "query"), outputSchema: returns("skyId", "entityId") },
      { ...needs("SkyAirportInfo", "skyId"), outputSchema: returns("skyId") },
      { ...needs("BlogPosts"), outputSchema: returns("skyId") },
    ];
    expect(findIdentifierProviders(compileCatalog(tools))).toEqual(
      new Map([
        ["SkyFlightSearch", [["SkySearchAirport"]]],
        ["SkyAirportInfo", [["SkySearchAirport"]]],
      ]),
    );
  });

  it("links nothing when more than three tools return the identifier", () => {
    const sources = ["a", "b", "c", "d"].map((letter) => ({
      ...needs(`shop_list_${letter}`),
      outputSchema: returns("product_id"),
    }));
    expect(findIdentifierProviders(compileCatalog([needs("shop_reviews", "product_id"), ...sources])).size).toBe(0);
    expect(
      findIdentifierProviders(compileCatalog([needs("shop_reviews", "product_id"), ...sources.slice(1)])).get(
        "shop_reviews",
      ),
    ).toEqual([["shop_list_b", "shop_list_c", "shop_list_d"]]);
  });

  it("links nothing when more than 64 tools return the identifier, related or not", () => {
    const others = Array.from({ length: 64 }, (_, at) => ({
      ...needs(`feed_${at}`),
      outputSchema: returns("product_id"),
    }));
    const source = { ...needs("shop_search"), outputSchema: returns("product_id") };
    expect(
      findIdentifierProviders(compileCatalog([needs("shop_reviews", "product_id"), source, ...others.slice(1)])).get(
        "shop_reviews",
      ),
    ).toEqual([["shop_search"]]);
    expect(findIdentifierProviders(compileCatalog([needs("shop_reviews", "product_id"), source, ...others])).size).toBe(
      0,
    );
  });
});

describe("fuseRankings", () => {
  it("scores Σ 1/(60 + rank) and breaks ties by first appearance", () => {
    const fused = fuseRankings([
      [
        { name: "a", score: 9 },
        { name: "b", score: 1 },
      ],
      [
        { name: "b", score: 0.9 },
        { name: "c", score: 0.5 },
      ],
    ]);
    expect(fused.map((item) => item.name)).toEqual(["b", "a", "c"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fuseRankings([[{ name: "x", score: 1 }], [{ name: "y", score: 1 }]]).map((item) => item.name)).toEqual([
      "x",
      "y",
    ]);
  });

  it("applies weights and counts a repeated name once", () => {
    const fused = fuseRankings(
      [
        [{ name: "a", score: 1 }],
        [
          { name: "b", score: 1 },
          { name: "b", score: 1 },
        ],
      ],
      { weights: [1, 3], constant: 0 },
    );
    expect(fused).toEqual([
      { name: "b", score: 3 },
      { name: "a", score: 1 },
    ]);
  });
});

describe("createEmbeddingRetriever", () => {
  // A toy embedding: counts of a few concept words, enough to test the plumbing.
  const concepts = ["weather", "mail", "money"];
  const embed = (text: string): number[] => concepts.map((concept) => (text.toLowerCase().includes(concept) ? 1 : 0));

  it("embeds the catalog once, the query each time, and ranks by cosine", async () => {
    const batches: number[] = [];
    const retriever = createEmbeddingRetriever({
      embed: async (texts) => (batches.push(texts.length), texts.map(embed)),
      topK: 2,
    });
    const tools = [tool("pay", "Send money"), tool("forecast", "Weather forecast"), tool("inbox", "Read mail")];
    expect(await retriever("weather tomorrow", tools)).toEqual([
      { name: "forecast", score: 1 },
      { name: "pay", score: 0 },
    ]);
    await retriever("mail from Bob", tools);
    expect(batches).toEqual([3, 1, 1]);
    expect(names(await selectTools("any news on the weather?", tools, { k: 1, retriever }))).toEqual(["forecast"]);
  });
});
