/**
 * A response's tool calls need not carry ids (some providers and a hostile model leave them
 * out). Each call is found again in its response by id; without one, a host call in the same
 * response as an activation must still be judged as if the activation had happened.
 */
import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { skillsMiddleware } from "./middleware.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project } from "./test-utils/fixtures.js";

function hostTools() {
  const spies = { read_file: vi.fn(), send_email: vi.fn(), echo: vi.fn() };
  const tools = [
    tool(
      (input: Record<string, unknown>) => {
        spies.read_file(input);
        return "read ok";
      },
      { name: "read_file", description: "Read a file.", schema: z.looseObject({}) },
    ),
    tool(
      (input: Record<string, unknown>) => {
        spies.send_email(input);
        return "sent";
      },
      { name: "send_email", description: "Send an email.", schema: z.looseObject({}) },
    ),
    // A tool whose output the model chooses (an echo, a search result, a file it wrote).
    tool(
      (input: { text?: string }) => {
        spies.echo(input);
        return input.text ?? "";
      },
      { name: "echo", description: "Echo text.", schema: z.looseObject({ text: z.string().optional() }) },
    ),
  ];
  return { tools, spies };
}

const noIds = (...list: Array<{ name: string; args?: Record<string, unknown> }>) =>
  new AIMessage({
    content: "",
    tool_calls: list.map((c) => ({ name: c.name, args: c.args ?? {}, type: "tool_call" as const })),
  });
describe("tool calls without ids, an activation and a host call in one response", () => {
  for (const order of ["activation first", "host call first"]) {
    it(`(${order}) the host call is judged under the activation`, async () => {
      const p = await project({ "pdf-report": pdfSkill });
      const host = hostTools();
      const act = { name: "skill_pdf-report" };
      const mail = { name: "send_email", args: { to: "x@example.org" } };
      const model = fakeModel()
        .respond(order === "activation first" ? noIds(act, mail) : noIds(mail, act))
        .respond(new AIMessage("done"));
      const agent = createAgent({
        model,
        tools: host.tools,
        middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} })],
      });
      const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales")] });
      expect(host.spies.send_email).not.toHaveBeenCalled();
      expect(result[STATE_KEY]?.active?.map((a) => a.name)).toEqual(["pdf-report"]);
      const texts = result.messages.map((m) => m.text);
      expect(texts.some((t) => t.includes("TOOL_NOT_ALLOWED"))).toBe(true);
    });
  }
});
