/**
 * Dynamic tools: a middleware that adds a tool to the model's request in `wrapModelCall` and
 * supplies its implementation in `wrapToolCall` (LangChain's documented pattern; `request.tool`
 * is undefined for it until that middleware sets it). An active skill's whitelist must hold for
 * them as for registered tools, in either middleware order, and with no skill active they run.
 */
import {
  AIMessage,
  createAgent,
  createMiddleware,
  fakeModel,
  HumanMessage,
  ToolMessage,
  tool,
} from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { pdfSkill, project, spiedTools } from "./test-utils/fixtures.js";

function dynamicToolMiddleware() {
  const ran = vi.fn();
  const dynamic = tool(
    (input: Record<string, unknown>) => {
      ran(input);
      return "upload ok";
    },
    { name: "upload_report", description: "Uploads a report.", schema: z.looseObject({}) },
  );
  const middleware = createMiddleware({
    name: "dynamic-tools",
    wrapModelCall: (request, handler) => handler({ ...request, tools: [...request.tools, dynamic] }),
    wrapToolCall: (request, handler) =>
      request.toolCall.name === "upload_report" && !request.tool
        ? handler({ ...request, tool: dynamic })
        : handler(request),
  });
  return { middleware, ran };
}

const resultOf = (messages: unknown[], id: string) => {
  const message = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.tool_call_id === id);
  return message ? JSON.parse(message.text) : undefined;
};

describe("a dynamic tool the active skill does not allow", () => {
  for (const order of ["dynamic middleware first", "skillshelf first"] as const) {
    it(`never runs, in the same response as the activation and after it (${order})`, async () => {
      const p = await project({ "pdf-report": pdfSkill });
      const host = spiedTools(["read_file"]);
      const dyn = dynamicToolMiddleware();
      const skills = skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} });
      const model = fakeModel()
        .respond(
          new AIMessage({
            content: "",
            tool_calls: [
              { name: "skill_pdf-report", args: {}, id: "a1", type: "tool_call" },
              { name: "upload_report", args: {}, id: "u1", type: "tool_call" },
            ],
          }),
        )
        .respondWithTools([{ name: "upload_report", args: {}, id: "u2" }])
        .respond(new AIMessage("done"));
      const agent = createAgent({
        model,
        tools: host.tools,
        middleware: order === "skillshelf first" ? [skills, dyn.middleware] : [dyn.middleware, skills],
      });

      const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales")] });

      expect(dyn.ran).not.toHaveBeenCalled();
      expect(resultOf(result.messages, "a1")).toMatchObject({ status: "success" });
      for (const id of ["u1", "u2"]) {
        const answer = resultOf(result.messages, id);
        expect(answer?.status).toBe("error");
        // Where skillshelf sees the tool among the model's tools (the adding middleware wraps
        // it), the refusal is the whitelist's. Where it is added inside skillshelf, skillshelf
        // never learns it exists: a refused call then reads as a tool it does not know, and
        // still never runs (README: put skillshelf inside such middleware).
        expect(answer?.error_type).toBe(
          order === "dynamic middleware first" ? "TOOL_NOT_ALLOWED" : "UNKNOWN_TOOL",
        );
        expect(JSON.stringify(answer)).not.toContain("read_file,");
      }
    });
  }

  it("runs with no skill active", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const dyn = dynamicToolMiddleware();
    const model = fakeModel()
      .respondWithTools([{ name: "upload_report", args: {}, id: "u1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: spiedTools(["read_file"]).tools,
      middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), dyn.middleware],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("upload it")] });

    expect(dyn.ran).toHaveBeenCalledOnce();
    const message = result.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "u1");
    expect(message?.text).toBe("upload ok");
  });
});
