import { Agent } from "@mastra/core/agent";
import { describe, expect, it } from "vitest";
import { mastraGenerate } from "./generate.js";
import { scriptedModel, systemText } from "./test-utils/model.js";

describe("mastraGenerate", () => {
  it("runs a model with the given system text and prompt, and returns the text", async () => {
    const mock = scriptedModel([{ text: "A smaller, clearer step 2." }]);
    const generate = mastraGenerate(mock.model);
    const text = await generate({ system: "You improve skills.", prompt: "Improve step 2." });

    expect(text).toBe("A smaller, clearer step 2.");
    const [call] = mock.calls();
    expect(systemText(call)).toEqual(["You improve skills."]);
    expect(call?.prompt.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "Improve step 2." }],
    });
    expect(call?.tools ?? []).toEqual([]);
  });

  it("uses an existing agent, replacing its instructions for the call", async () => {
    const mock = scriptedModel([{ text: "proposal" }]);
    const agent = new Agent({ id: "a", name: "a", instructions: "Agent instructions.", model: mock.model });
    const text = await mastraGenerate(agent)({ system: "Analyse the run.", prompt: "Run log..." });

    expect(text).toBe("proposal");
    expect(systemText(mock.calls()[0])).toEqual(["Analyse the run."]);
  });

  it("rejects when the signal is aborted, instead of returning empty text", async () => {
    const mock = scriptedModel([{ text: "never" }]);
    const generate = mastraGenerate(mock.model);
    await expect(generate({ system: "s", prompt: "p", signal: AbortSignal.abort() })).rejects.toThrow(
      /abort/i,
    );

    // Aborted while the model is working.
    const controller = new AbortController();
    const slow = scriptedModel([]);
    slow.mock.doGenerate = async () => {
      controller.abort();
      throw new DOMException("This operation was aborted", "AbortError");
    };
    await expect(
      mastraGenerate(slow.model)({ system: "s", prompt: "p", signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
  });
});
