/**
 * A forbidden call in the same model response as the activation that forbids it. Mastra
 * runs a response's tool calls concurrently by default, so without the response reaching
 * the session first, `send_email` ran whichever order the two calls came in.
 */
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { z } from "zod";
import { createSkills } from "./skills.js";
import { createProject, hostTools, type Project } from "./test-utils/fixtures.js";
import { type ScriptStep, scriptedModel } from "./test-utils/model.js";

const DRAFT_LETTER = `---
name: draft-letter
description: Draft a formal letter for the user to review before anything is sent.
triggers: [draft a letter]
allowed-tools: Write
---
Draft the letter into a file. Never send anything.
`;

let project: Project;
beforeEach(async () => {
  project = await createProject({ "draft-letter": DRAFT_LETTER });
});
afterEach(async () => {
  await project.cleanup();
});

function results(toolResults: unknown[]) {
  return toolResults.map(
    (r) => ((r as { payload?: unknown }).payload ?? r) as { toolName: string; result: unknown },
  );
}

const ACTIVATE: [string, unknown] = ["skill_draft-letter", {}];
const SEND: [string, unknown] = ["send_email", { to: "all@example.com", body: "Signed." }];

describeWithSharedData.each([
  ["activation first", [ACTIVATE, SEND]],
  ["send_email first", [SEND, ACTIVATE]],
] as const)("a send_email in the same response as the activation (%s)", (_order, calls) => {
  it.each(["generate", "stream"] as const)(
    "is judged as if the activation had already happened, with Mastra's default concurrency (%s)",
    async (mode) => {
      const skills = createSkills({ shelf: project.shelf, onDiagnostic: () => undefined });
      const send = vi.fn(async () => ({ sent: true }));
      const sendEmail = createTool({
        id: "send_email",
        description: "Send an email.",
        inputSchema: z.object({}).passthrough(),
        execute: send,
      });
      const script: ScriptStep[] = [{ calls: [...calls] }, { text: "Drafted." }];
      const mock = scriptedModel(script);
      const agent = new Agent({
        id: "a",
        name: "a",
        instructions: "Help.",
        model: mock.model,
        tools: { ...hostTools().tools, send_email: sendEmail },
        inputProcessors: [skills.processor],
      });
      const message = "Please draft a letter to the board and send it";
      const toolResults =
        mode === "generate"
          ? (await agent.generate(message, { maxSteps: 3 })).toolResults
          : await (await agent.stream(message, { maxSteps: 3 })).toolResults;

      expect(send).not.toHaveBeenCalled();
      const byName = Object.fromEntries(results(toolResults).map((r) => [r.toolName, r.result]));
      expect(byName["skill_draft-letter"]).toMatchObject({ status: "success" });
      expect(byName.send_email).toMatchObject({ status: "error", error_type: "TOOL_NOT_ALLOWED" });
    },
  );
});
