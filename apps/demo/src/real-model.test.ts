import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDemo } from "./demo.js";
import { skillEventSignature } from "./events.js";
import { FRAMEWORKS, modelFromEnv } from "./runners/runner.js";
import { runStory } from "./story.js";
import { startOfflineRulesServer } from "./test-utils/scripted-server.js";

describe("modelFromEnv", () => {
  it("is the offline model without OPENAI_API_KEY, and an OpenAI-compatible endpoint with it", () => {
    expect(modelFromEnv({})).toEqual({ kind: "offline" });
    expect(modelFromEnv({ OPENAI_API_KEY: " " })).toEqual({ kind: "offline" });
    expect(modelFromEnv({ OPENAI_API_KEY: "k" })).toEqual({
      kind: "openai",
      apiKey: "k",
      model: "gpt-4o-mini",
    });
    expect(
      modelFromEnv({
        OPENAI_API_KEY: "k",
        OPENAI_BASE_URL: "http://localhost:11434/v1",
        SKILLSHELF_MODEL: "qwen3",
      }),
    ).toEqual({
      kind: "openai",
      apiKey: "k",
      baseURL: "http://localhost:11434/v1",
      model: "qwen3",
    });
  });
});

describe.each(FRAMEWORKS)("the OPENAI_API_KEY path on %s", (framework) => {
  // One story per hook: the same story offline, then through the provider over HTTP.
  let offline: string[];
  let online: string[];
  let server: Awaited<ReturnType<typeof startOfflineRulesServer>>;
  beforeAll(async () => {
    const demo = await openDemo({ framework });
    try {
      await runStory(demo, async () => ({ accept: true, by: "test" }));
      offline = skillEventSignature(demo.bus.events);
    } finally {
      await demo.close();
    }
  });
  beforeAll(async () => {
    server = await startOfflineRulesServer();
    const demo = await openDemo({
      framework,
      model: { kind: "openai", apiKey: "test", baseURL: server.url, model: "scripted" },
    });
    try {
      await runStory(demo, async () => ({ accept: true, by: "test" }));
      online = skillEventSignature(demo.bus.events);
    } finally {
      await demo.close();
    }
  });
  afterAll(() => server?.close());

  it("runs the story through the framework's real OpenAI-compatible provider, over HTTP", () => {
    expect(server.requests.length).toBeGreaterThan(10);
    expect(server.requests.every((r) => r.body.model === "scripted")).toBe(true);
  });

  it("gets the same skill events as offline", () => {
    expect(online).toEqual(offline);
  });
});
