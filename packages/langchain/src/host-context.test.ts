/**
 * What the host knows reaches core: the files its `files` option reports gate `paths`
 * skills, and LangGraph's thread and run ids are stamped on every skill event.
 */

import { MemorySaver } from "@langchain/langgraph";
import type { Diagnostic } from "@skillshelf/core";
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { skillsMiddleware } from "./middleware.js";
import { project, recorder, skillFile } from "./test-utils/fixtures.js";

const sqlFix = skillFile(
  {
    name: "sql-fix",
    description: "Fix a broken SQL query.",
    triggers: ["fix the query"],
    paths: ["**/*.sql"],
  },
  "Fix the SQL.",
);

describe("skillsMiddleware's host context", () => {
  it("offers a paths skill for a file the host reports, not without it", async () => {
    for (const [files, offered] of [
      [["db/report.sql"], true],
      [["README.md"], false],
    ] as const) {
      const p = await project({ "sql-fix": sqlFix });
      const seen = recorder();
      const states: Array<Record<string, unknown>> = [];
      const agent = createAgent({
        model: fakeModel().respond(new AIMessage("ok")),
        middleware: [
          skillsMiddleware({
            shelf: p.shelf,
            files: (state) => {
              states.push(state);
              return files;
            },
          }),
          seen.middleware,
        ],
      });
      await agent.invoke({ messages: [new HumanMessage("fix the query")] });
      expect(seen.calls[0]?.tools.includes("skill_sql-fix")).toBe(offered);
      expect(Array.isArray(states[0]?.messages)).toBe(true);
    }
  });

  it("a files option that throws plans without host files, with a warning", async () => {
    const p = await project({ "sql-fix": sqlFix });
    const seen = recorder();
    const diagnostics: Diagnostic[] = [];
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("ok")),
      middleware: [
        skillsMiddleware({
          shelf: p.shelf,
          onDiagnostic: (d) => diagnostics.push(d),
          files: () => {
            throw new Error("no editor");
          },
        }),
        seen.middleware,
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("fix the query")] });
    expect(seen.calls[0]?.tools).not.toContain("skill_sql-fix");
    expect(diagnostics.some((d) => d.code === "plan-fallback" && d.message.includes("no editor"))).toBe(true);
  });

  it("stamps the thread and run ids on the events", async () => {
    const p = await project({ "sql-fix": sqlFix });
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("ok")),
      middleware: [skillsMiddleware({ shelf: p.shelf })],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      { messages: [new HumanMessage("fix the query in db/report.sql")] },
      // LangGraph's server puts the run's id in `configurable.run_id`; a host can too.
      { configurable: { thread_id: "thread-7", run_id: "run-42" } },
    );
    const candidates = p.events.find((e) => e.type === "candidates");
    expect(candidates?.thread).toBe("thread-7");
    expect(candidates?.run).toBe("run-42");
  });
});
