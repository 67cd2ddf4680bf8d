import { describe, expect, it } from "vitest";
import { createGenerate } from "./generate.js";
import { scriptedModel, systemText } from "./test-utils/mock-model.js";

describe("createGenerate", () => {
  it("bridges core's Generate to an AI SDK model: system as instructions, prompt as the user message", async () => {
    const model = scriptedModel(() => ({ text: '{"proposal": "add a step"}' }));
    const generate = createGenerate(model, { temperature: 0 });
    const text = await generate({ system: "You improve skills.", prompt: "Here is the run log." });

    expect(text).toBe('{"proposal": "add a step"}');
    const call = model.calls[0];
    expect(systemText(call)).toBe("You improve skills.");
    expect(call?.prompt.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Here is the run log." }],
    });
    expect(call?.temperature).toBe(0);
  });

  it("passes the abort signal through to the model call", async () => {
    const model = scriptedModel(() => ({ text: "ok" }));
    const controller = new AbortController();
    await createGenerate(model)({ system: "s", prompt: "p", signal: controller.signal });
    const signal = model.calls[0]?.abortSignal;
    expect(signal?.aborted).toBe(false);
    controller.abort();
    expect(signal?.aborted).toBe(true);
  });
});
