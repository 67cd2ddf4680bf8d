/**
 * A response's tool calls need not carry ids (some providers and a hostile model leave them
 * out). Each call is found again in its response by id; without one, a host call in the same
 * response as an activation must still be judged as if the activation had happened.
 */
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project, spiedTools } from "./test-utils/fixtures.js";

const hostTools = () =>
  spiedTools(["read_file", "send_email", "echo"], { echo: (input) => String(input.text ?? "") });

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
