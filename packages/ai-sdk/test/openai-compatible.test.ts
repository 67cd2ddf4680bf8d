/**
 * Through a real provider package: `@ai-sdk/openai-compatible` speaking HTTP to the scripted
 * OpenAI-compatible server on 127.0.0.1. This checks what actually goes over the wire: the
 * tools offered per request, the skill body as a system message, and tool calls parsed back
 * from JSON bodies and from SSE deltas.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  reply,
  type ScriptedOpenAIServer,
  skipWithoutSharedData,
  startScriptedOpenAIServer,
} from "@skillshelf/test-utils";
import { generateText, isStepCount, type ModelMessage, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkills, type Skills } from "../src/index.js";
import { type Fixture, hostTools, MARKITDOWN_BODY, skillFixture } from "../src/test-utils/fixtures.js";
import { isSkillshelfTool } from "../src/test-utils/mock-model.js";

let fixture: Fixture;
let skills: Skills;
let server: ScriptedOpenAIServer;

beforeEach(skipWithoutSharedData);
beforeEach(async () => {
  fixture = await skillFixture();
  skills = await createSkills({ shelf: fixture.shelf });
  server = await startScriptedOpenAIServer({
    script: (request, turn) => {
      if (turn === 0) {
        return request.toolNames.includes("skill_markitdown")
          ? reply.toolCall("skill_markitdown")
          : reply.toolCall("activate_skill", { name: "markitdown" });
      }
      if (turn === 1) return reply.toolCall("read_file", { path: "report.pdf" });
      return reply.text("Converted report.pdf to Markdown.");
    },
  });
});
afterEach(async () => {
  await server.close();
  await fixture.cleanup();
});

const messages: ModelMessage[] = [{ role: "user", content: "Convert report.pdf to Markdown" }];
const hostNames = (names: string[]) => names.filter((n) => !isSkillshelfTool(n)).sort();

describe.each(["generateText", "streamText"] as const)("@ai-sdk/openai-compatible with %s", (mode) => {
  it("offers the restricted tools and the skill body over the wire after activation", async () => {
    const model = createOpenAICompatible({ name: "scripted", baseURL: server.url, includeUsage: true })(
      "scripted-model",
    );
    const tools = hostTools();
    const options = {
      model,
      instructions: "You convert documents.",
      messages,
      stopWhen: isStepCount(5),
      ...skills.wrap({ messages, tools }),
    };
    let text: string;
    if (mode === "generateText") {
      text = (await generateText(options)).text;
    } else {
      const result = streamText(options);
      text = await result.text;
    }

    expect(text).toBe("Converted report.pdf to Markdown.");
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => Boolean(r.body.stream))).toEqual(Array(3).fill(mode === "streamText"));
    const [first, second] = server.requests;
    expect(hostNames(first!.toolNames)).toEqual([
      "bash",
      "git_log",
      "list_files",
      "read_file",
      "rename_file",
      "send_email",
      "web_search",
      "write_file",
    ]);
    expect(hostNames(second!.toolNames)).toEqual(["bash", "read_file", "write_file"]);
    expect(second!.systemTexts[0]).toBe("You convert documents.");
    expect(second!.systemTexts.join("\n")).toContain(MARKITDOWN_BODY);
    expect(first!.systemTexts.join("\n")).not.toContain(MARKITDOWN_BODY);
    // The activation result went back to the model as a tool message.
    const toolMessage = second!.body.messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(toolMessage?.content))).toMatchObject({
      status: "success",
      data: { name: "markitdown" },
    });
    expect(tools.read_file?.execute).toHaveBeenCalledWith({ path: "report.pdf" }, expect.anything());
  });
});
