/**
 * Empty tool-call ids ("") beside an activation in one response, in both orders, with
 * the checkpointed state and in an agent rebuilt from the messages alone. (Repeated ids are in
 * whitelist.attack.test.ts, missing ones in same-response.attack.test.ts.)
 */
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { STATE_KEY } from "./state.js";
import { pdfSkill, project, recorder, spiedTools } from "./test-utils/fixtures.js";

const calls = (...list: Array<{ name: string; id: string; args?: Record<string, unknown> }>) =>
  new AIMessage({
    content: "",
    tool_calls: list.map((c) => ({ name: c.name, args: c.args ?? {}, id: c.id, type: "tool_call" as const })),
  });

describe("empty tool-call ids", () => {
  for (const order of ["activation first", "blocked call first"] as const) {
    it(`(${order}) the activation holds on the next call, and in an agent rebuilt from the messages`, async () => {
      const p = await project({ "pdf-report": pdfSkill });
      const host = spiedTools(["read_file", "send_email"]);
      const activation = { name: "skill_pdf-report", id: "" };
      const blocked = { name: "send_email", id: "", args: { to: "x@example.org" } };
      const model = fakeModel()
        .respond(order === "activation first" ? calls(activation, blocked) : calls(blocked, activation))
        .respond(calls({ name: "send_email", id: "", args: { to: "x@example.org" } }))
        .respond(new AIMessage("done"));
      const rec = recorder();
      const agent = createAgent({
        model,
        tools: host.tools,
        middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), rec.middleware],
      });
      const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales")] });
      expect(host.spies.send_email).not.toHaveBeenCalled();
      expect(result[STATE_KEY]?.active?.map((a) => a.name)).toEqual(["pdf-report"]);
      expect(rec.calls[1]?.tools).not.toContain("send_email");

      const rec2 = recorder();
      const again = createAgent({
        model: fakeModel()
          .respond(calls({ name: "send_email", id: "", args: { to: "x@example.org" } }))
          .respond(new AIMessage("done")),
        tools: host.tools,
        middleware: [skillsMiddleware({ shelf: p.shelf, onDiagnostic: () => {} }), rec2.middleware],
      });
      const messages = result.messages.filter((m) => !(m instanceof AIMessage && m.text === "done"));
      await again.invoke({ messages });
      expect(host.spies.send_email).not.toHaveBeenCalled();
      expect(rec2.calls[0]?.tools).not.toContain("send_email");
    });
  }
});
