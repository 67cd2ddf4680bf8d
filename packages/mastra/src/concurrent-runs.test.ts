/**
 * Two runs of one agent at the same time: each run's tools answer through that run's own
 * session. One run activates a skill whose whitelist rules `web_search` out; the other, in
 * flight at the same moment, keeps every tool and runs `web_search` for real.
 */
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { Session } from "@skillshelf/core";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { systemText, toolNames, toolOutput } from "./test-utils/model.js";

type CallOptions = MockLanguageModelV4["doGenerateCalls"][number];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

const REVIEW = "Please review this contract for red flags";
const SEARCH = "Find me a good recipe for dinner tonight";
const REVIEW_BODY = "Run the contract review.";

/** The conversation's request: the first user message of the prompt. */
function requestOf(call: CallOptions): string {
  const user = call.prompt.find((m) => m.role === "user");
  const parts = Array.isArray(user?.content) ? user.content : [];
  return parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/**
 * A model that answers each conversation from its own script, and holds every first call
 * until both runs have made theirs: the two runs are in flight together.
 */
type Step = { text: string } | { calls: Array<[toolName: string, input: unknown]> };

function twoConversationModel(scripts: Record<string, Step[]>) {
  const steps = new Map<string, number>();
  let firstCalls = 0;
  let bothStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    bothStarted = resolve;
  });
  let ids = 0;
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      const request = requestOf(options);
      const at = steps.get(request) ?? 0;
      steps.set(request, at + 1);
      if (at === 0 && ++firstCalls === 2) bothStarted();
      if (at === 0) await started;
      const step = scripts[request]?.[at] ?? { text: "(end of script)" };
      if ("text" in step) {
        return {
          content: [{ type: "text", text: step.text }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: step.calls.map(([toolName, input]) => ({
          type: "tool-call" as const,
          toolCallId: `call-${++ids}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  const of = (request: string) => calls.filter((c) => requestOf(c) === request);
  return { model: model as unknown as MastraModelConfig, of };
}

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

describeWithSharedData("two runs of one agent at once", () => {
  it("keep their own sessions: one run's active skill never narrows or refuses the other's tools", async () => {
    const planned: Session[] = [];
    const skills = createSkills({
      shelf: project.shelf,
      onDiagnostic: () => undefined,
      onPlan: (_plan, { session }) => planned.push(session),
    });
    const { tools, spies } = hostTools();
    const mock = twoConversationModel({
      [REVIEW]: [
        { calls: [["skill_review-contract", {}]] },
        { calls: [["web_search", { q: "contract law" }]] },
        { text: "Reviewed." },
      ],
      [SEARCH]: [{ calls: [["web_search", { q: "dinner recipe" }]] }, { text: "Here is one." }],
    });
    const agent = new Agent({
      id: "a",
      name: "A",
      instructions: "Help.",
      model: mock.model,
      tools,
      inputProcessors: [skills.processor],
    });

    const [review, search] = await Promise.all([
      agent.generate(REVIEW, { maxSteps: 5 }),
      agent.generate(SEARCH, { maxSteps: 5 }),
    ]);
    expect(review.text).toBe("Reviewed.");
    expect(search.text).toBe("Here is one.");

    // The reviewing run: the skill is active from its second call on, web_search refused there.
    const reviewCalls = mock.of(REVIEW);
    expect(reviewCalls).toHaveLength(3);
    expect(systemText(reviewCalls[1]).join("\n")).toContain(REVIEW_BODY);
    expect(toolNames(reviewCalls[1])).not.toContain("web_search");
    expect(JSON.stringify(toolOutput(reviewCalls[2], "web_search"))).toContain("TOOL_NOT_ALLOWED");

    // The other run, in flight at the same time: every tool, no skill body, web_search ran.
    const searchCalls = mock.of(SEARCH);
    expect(searchCalls).toHaveLength(2);
    for (const call of searchCalls) {
      expect(toolNames(call)).toEqual(expect.arrayContaining(["Read", "Write", "web_search"]));
      expect(systemText(call).join("\n")).not.toContain(REVIEW_BODY);
    }
    expect(spies.web_search).toHaveBeenCalledOnce();
    expect(spies.web_search.mock.calls[0]?.[0]).toEqual({ q: "dinner recipe" });
    expect(JSON.stringify(toolOutput(searchCalls[1], "web_search"))).not.toContain("TOOL_NOT_ALLOWED");

    // One session per run: five model calls, two sessions.
    expect(planned).toHaveLength(5);
    expect(new Set(planned).size).toBe(2);
  });
});
