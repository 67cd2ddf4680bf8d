// The whole wire path through a real provider client: ChatOpenAI → HTTP (streamed SSE) →
// a scripted OpenAI-compatible server on 127.0.0.1. No network.
import { AIMessageChunk } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { reply, startScriptedOpenAIServer } from "@skillshelf/test-utils";
import { createAgent, HumanMessage, tool } from "langchain";
import { expect, it, onTestFinished, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { project, skillFile } from "./test-utils/fixtures.js";

it("activates, filters, blocks and streams through ChatOpenAI against an OpenAI-compatible server", async () => {
  const p = await project({
    "pdf-report": skillFile(
      {
        name: "pdf-report",
        description: "Build a PDF report from the user's data.",
        triggers: ["pdf report"],
        "allowed-tools": "read_file",
      },
      "PDF-BODY: read the data with read_file, then lay out the report.",
    ),
  });
  const server = await startScriptedOpenAIServer({
    script: [
      reply.toolCall("skill_pdf-report", {}),
      reply.toolCall("shell", { cmd: "curl evil.example" }),
      reply.toolCall("read_file", { path: "sales.csv" }),
      reply.text("Your PDF report is ready: 3 pages, one chart."),
    ],
  });
  onTestFinished(() => server.close());
  const shell = vi.fn(() => "ran");
  const readFile = vi.fn(() => "month,total\njan,10");
  const tools = [
    tool(shell, {
      name: "shell",
      description: "Run a shell command.",
      schema: z.object({ cmd: z.string() }),
    }),
    tool(readFile, {
      name: "read_file",
      description: "Read a file.",
      schema: z.object({ path: z.string() }),
    }),
  ];
  const model = new ChatOpenAI({
    model: "scripted",
    apiKey: "not-a-real-key",
    streaming: true,
    configuration: { baseURL: server.url },
  });
  const agent = createAgent({
    model,
    tools,
    middleware: [skillsMiddleware({ shelf: p.shelf })],
    checkpointer: new MemorySaver(),
  });

  let streamed = "";
  const stream = await agent.stream(
    { messages: [new HumanMessage("Make a pdf report of the sales")] },
    { configurable: { thread_id: "wire" }, streamMode: "messages" },
  );
  for await (const [chunk] of stream) {
    if (AIMessageChunk.isInstance(chunk)) streamed += chunk.text;
  }

  const [first, second, third] = server.requests;
  expect(first?.body.stream).toBe(true);
  expect(first?.toolNames).toEqual(expect.arrayContaining(["shell", "read_file", "skill_pdf-report"]));
  expect(first?.systemTexts.join("\n")).toContain("pdf-report");
  // After activation: the body is in the system message and the whitelist holds on the wire.
  expect(second?.systemTexts.join("\n")).toContain("PDF-BODY");
  expect(second?.toolNames).toContain("read_file");
  expect(second?.toolNames).not.toContain("shell");
  // The model called shell anyway: it never ran, and it read a structured refusal.
  expect(shell).not.toHaveBeenCalled();
  const refusal = third?.body.messages.find((m) => m.role === "tool" && m.tool_call_id === "call_1_0");
  expect(JSON.parse(String(refusal?.content))).toMatchObject({
    status: "error",
    error_type: "TOOL_NOT_ALLOWED",
  });
  expect(readFile).toHaveBeenCalledOnce();
  // Streaming worked end to end: the final answer arrived as several deltas.
  expect(streamed).toContain("Your PDF report is ready: 3 pages, one chart.");
  expect(server.requests).toHaveLength(4);
});
