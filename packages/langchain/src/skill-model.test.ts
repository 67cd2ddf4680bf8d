import type { Diagnostic } from "@skillshelf/core";
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { project, skillFile } from "./test-utils/fixtures.js";

const review = skillFile(
  {
    name: "deep-review",
    description: "Review a change in depth on a stronger model.",
    triggers: ["deep review"],
    model: "strong-model",
  },
  "Review the change line by line.",
);

/** The agent's model activates the skill (twice: two steps after it), then answers. */
function models() {
  const host = fakeModel()
    .respondWithTools([{ name: "skill_deep-review", args: {}, id: "a1" }])
    .respondWithTools([{ name: "skill_deep-review", args: {}, id: "a2" }])
    .respond(new AIMessage("host answer"));
  const strong = fakeModel().respond(new AIMessage("strong answer"));
  return { host, strong };
}

const ask = { messages: [new HumanMessage("please do a deep review of this change")] };

describe("model: a skill's model calls go to the model it names", () => {
  it("switches to what resolveModel returns for the calls after activation", async () => {
    const p = await project({ "deep-review": review });
    const { host, strong } = models();
    const asked: string[] = [];
    const agent = createAgent({
      model: host,
      middleware: [
        skillsMiddleware({
          shelf: p.shelf,
          resolveModel: (id) => {
            asked.push(id);
            return id === "strong-model" ? strong : undefined;
          },
        }),
      ],
    });
    const result = await agent.invoke(ask);
    expect(host.calls).toHaveLength(1);
    expect(strong.calls).toHaveLength(1);
    expect(result.messages.at(-1)?.text).toBe("strong answer");
    expect(asked).toEqual(["strong-model"]);
  });

  it("keeps the agent's model, and says so once, without a mapping", async () => {
    for (const resolveModel of [undefined, () => undefined]) {
      const p = await project({ "deep-review": review });
      const { host, strong } = models();
      const diagnostics: Diagnostic[] = [];
      const agent = createAgent({
        model: host,
        middleware: [
          skillsMiddleware({
            shelf: p.shelf,
            onDiagnostic: (d) => diagnostics.push(d),
            ...(resolveModel && { resolveModel }),
          }),
        ],
      });
      const result = await agent.invoke(ask);
      expect(result.messages.at(-1)?.text).toBe("host answer");
      expect(host.calls).toHaveLength(3);
      expect(strong.calls).toHaveLength(0);
      const notApplied = diagnostics.filter((d) => d.code === "field-not-applied");
      expect(notApplied).toHaveLength(1);
      expect(notApplied[0]?.message).toContain('"strong-model"');
    }
  });
});
