import { AIMessage, fakeModel, HumanMessage, SystemMessage } from "langchain";
import { expect, it } from "vitest";
import { generateFrom } from "./generate.js";

it("turns a chat model into core's Generate: system + prompt in, text out", async () => {
  const model = fakeModel().respond(new AIMessage("PROPOSAL: tighten step 2"));
  const generate = generateFrom(model);

  const text = await generate({ system: "You improve skills.", prompt: "Here is the run." });

  expect(text).toBe("PROPOSAL: tighten step 2");
  const [system, prompt] = model.calls[0]?.messages ?? [];
  expect(SystemMessage.isInstance(system) && system.text).toBe("You improve skills.");
  expect(HumanMessage.isInstance(prompt) && prompt.text).toBe("Here is the run.");
});

it("passes the abort signal on to the model call", async () => {
  const model = fakeModel().respond(new AIMessage("ok"));
  const controller = new AbortController();

  await generateFrom(model)({ system: "s", prompt: "p", signal: controller.signal });

  expect((model.calls[0]?.options as { signal?: AbortSignal } | undefined)?.signal).toBe(controller.signal);
});
