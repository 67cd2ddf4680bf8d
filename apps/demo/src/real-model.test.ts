import { describe, expect, it } from "vitest";
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
  it("runs the same story through the framework's real OpenAI-compatible provider, over HTTP", async () => {
    const server = await startOfflineRulesServer();
    const offline = await openDemo({ framework });
    const online = await openDemo({
      framework,
      model: { kind: "openai", apiKey: "test", baseURL: server.url, model: "scripted" },
    });
    try {
      await runStory(offline, async () => ({ accept: true, by: "test" }));
      await runStory(online, async () => ({ accept: true, by: "test" }));
      expect(server.requests.length).toBeGreaterThan(10);
      expect(server.requests.every((r) => r.body.model === "scripted")).toBe(true);
      expect(skillEventSignature(online.bus.events)).toEqual(skillEventSignature(offline.bus.events));
    } finally {
      await Promise.all([offline.close(), online.close(), server.close()]);
    }
  });
});
