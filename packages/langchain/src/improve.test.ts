import { AIMessage, createAgent, fakeModel, HumanMessage, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { generateFrom } from "./generate.js";
import { skillsMiddleware } from "./middleware.js";
import { project, skillFile } from "./test-utils/fixtures.js";

const pdfSkill = skillFile(
  { name: "pdf-report", description: "Build a PDF report from the user's data.", triggers: ["pdf report"] },
  "Read the data with read_file, then lay out the report.",
);

const proposal = {
  proposals: [
    {
      title: "Check that the data file is not empty",
      change: "add",
      target: "step",
      rationale: "The run read an empty file and still built a report; a check avoids empty reports.",
      evidence: ["month,total"],
      edits: [
        {
          before: "Read the data with read_file, then lay out the report.",
          after:
            "Read the data with read_file, then lay out the report.\nIf the data has no rows, ask the user for the right file.",
        },
      ],
    },
  ],
};

function readFileTool() {
  return tool(() => "month,total", {
    name: "read_file",
    description: "Read a file.",
    schema: z.looseObject({}),
  });
}

/** An agent that activates pdf-report, reads a file and answers. */
function agentModel() {
  return fakeModel()
    .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
    .respondWithTools([{ name: "read_file", args: { path: "sales.csv" }, id: "r1" }])
    .respond(new AIMessage("Report ready."));
}

describe("improve: the opt-in improvement hook", () => {
  it("after a run that used a skill, core analyses the run and keeps the proposal for the user", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const analyst = fakeModel().respond(new AIMessage(JSON.stringify(proposal)));
    const agent = createAgent({
      model: agentModel(),
      tools: [readFileTool()],
      middleware: [
        skillsMiddleware({ shelf: p.shelf, improve: { generate: generateFrom(analyst), wait: true } }),
      ],
    });

    await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales.csv")] });

    const pending = await p.shelf.improvements.list({ skill: "pdf-report", status: "pending" });
    expect(pending.map((x) => x.title)).toEqual(["Check that the data file is not empty"]);
    expect(pending[0]?.outcome.status).toBe("success");
    // The analyst saw this run: the user's request and the tool traffic, as text.
    const prompt = analyst.calls[0]?.messages.map((m) => m.text).join("\n") ?? "";
    expect(prompt).toContain("Make a pdf report of sales.csv");
    expect(prompt).toContain("[calls read_file");
    // Nothing was written: the skill is unchanged until the user accepts.
    expect(p.shelf.get("pdf-report")?.body).not.toContain("no rows");
  });

  it("does nothing after a run without skills, and lets the host decide the outcome (or skip)", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const analyst = fakeModel();
    const outcome = vi.fn(() => undefined);
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("hi")),
      tools: [readFileTool()],
      middleware: [
        skillsMiddleware({
          shelf: p.shelf,
          improve: { generate: generateFrom(analyst), outcome, wait: true },
        }),
      ],
    });

    await agent.invoke({ messages: [new HumanMessage("hello")] });
    expect(outcome).not.toHaveBeenCalled();

    const used = createAgent({
      model: agentModel(),
      tools: [readFileTool()],
      middleware: [
        skillsMiddleware({
          shelf: p.shelf,
          improve: { generate: generateFrom(analyst), outcome, wait: true },
        }),
      ],
    });
    await used.invoke({ messages: [new HumanMessage("Make a pdf report of sales.csv")] });
    expect(outcome).toHaveBeenCalledOnce();
    expect(analyst.callCount).toBe(0);
  });

  it("reports a failed analysis without failing the run", async () => {
    const p = await project({ "pdf-report": pdfSkill });
    const onError = vi.fn();
    const agent = createAgent({
      model: agentModel(),
      tools: [readFileTool()],
      middleware: [
        skillsMiddleware({
          shelf: p.shelf,
          improve: {
            generate: generateFrom(fakeModel().respond(new AIMessage("not json"))),
            onError,
            wait: true,
          },
        }),
      ],
    });

    const result = await agent.invoke({ messages: [new HumanMessage("Make a pdf report of sales.csv")] });

    expect(result.messages.at(-1)?.text).toBe("Report ready.");
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: "INVALID_MODEL_OUTPUT" }),
      "pdf-report",
    );
  });
});

describe("improve: one analysis per skill the run used", () => {
  it("asks once for each skill (the one the model ended too) and writes nothing", async () => {
    const notesSkill = skillFile(
      { name: "release-notes", description: "Write release notes.", triggers: ["release notes"] },
      "Read the log, then write the notes.",
    );
    const p = await project({ "pdf-report": pdfSkill, "release-notes": notesSkill });
    const prompts: string[] = [];
    const generate = vi.fn(async ({ prompt }: { prompt: string }) => {
      prompts.push(prompt);
      return JSON.stringify({ proposals: [] });
    });
    const agent = createAgent({
      model: fakeModel()
        .respondWithTools([{ name: "skill_pdf-report", args: {}, id: "a1" }])
        .respondWithTools([{ name: "skill_release-notes", args: {}, id: "a2" }])
        .respondWithTools([{ name: "end_skill", args: { name: "release-notes" }, id: "e1" }])
        .respond(new AIMessage("Done.")),
      tools: [readFileTool()],
      middleware: [skillsMiddleware({ shelf: p.shelf, improve: { generate, wait: true } })],
    });
    const before = [p.shelf.get("pdf-report")?.body, p.shelf.get("release-notes")?.body];

    await agent.invoke({ messages: [new HumanMessage("Make a pdf report and the release notes")] });

    expect(generate).toHaveBeenCalledTimes(2);
    expect(prompts.some((x) => x.includes('Skill "pdf-report"'))).toBe(true);
    expect(prompts.some((x) => x.includes('Skill "release-notes"'))).toBe(true);
    await p.shelf.refresh();
    expect([p.shelf.get("pdf-report")?.body, p.shelf.get("release-notes")?.body]).toEqual(before);
    expect(await p.shelf.improvements.list({ status: "pending" })).toEqual([]);
  });
});
