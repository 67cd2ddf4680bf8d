import { describeWithSharedData } from "@skillshelf/test-utils";
import { expect, it } from "vitest";
import { corpusSkill } from "../history/test-utils/corpus.js";
import { analyzeRun } from "./analyze.js";
import { ImproveError } from "./errors.js";
import { answer, proposal, scripted, TRANSCRIPT } from "./test-utils/scripted.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
const skill = { name: "internal-comms", content: COMMS };

async function invalid(promise: Promise<unknown>): Promise<ImproveError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImproveError);
  expect((error as ImproveError).code).toBe("INVALID_MODEL_OUTPUT");
  return error as ImproveError;
}

describeWithSharedData("analyzeRun", () => {
  it("asks for small evidenced edits and returns validated, applicable proposals", async () => {
    const generate = scripted(answer(proposal()));
    const result = await analyzeRun({ skill, transcript: TRANSCRIPT, outcome: "partial", generate });

    expect(result.dropped).toEqual([]);
    expect(result.proposals).toMatchObject([
      {
        title: "Identify the audience along with the communication type",
        change: "change",
        applicable: true,
      },
    ]);
    expect(result.proposals[0]!.check).toMatchObject({ ok: true, violations: [] });
    const [call] = generate.calls;
    expect(call!.system).toMatch(/Small, incremental edits only/);
    expect(call!.system).toMatch(/not for this one task/);
    expect(call!.prompt).toContain(COMMS);
    expect(call!.prompt).toContain("user: Hmm, this was meant for the leadership team");
    expect(call!.prompt).toContain("partial");
  });

  it("tolerates a ```json fence with prose around it, and a bare list", async () => {
    const fenced = `Here is my analysis.\n\n\`\`\`json\n${answer(proposal())}\n\`\`\`\n\nLet me know!`;
    expect(
      (await analyzeRun({ skill, transcript: TRANSCRIPT, outcome: "failure", generate: scripted(fenced) }))
        .proposals,
    ).toHaveLength(1);
    const bare = JSON.stringify([proposal()]);
    expect(
      (await analyzeRun({ skill, transcript: TRANSCRIPT, outcome: "failure", generate: scripted(bare) }))
        .proposals,
    ).toHaveLength(1);
  });

  it("accepts an empty answer: nothing to improve", async () => {
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "success",
      generate: scripted('{"proposals": []}'),
    });
    expect(result).toMatchObject({ proposals: [], dropped: [] });
  });

  it("refuses an answer that is not JSON, saying where it breaks", async () => {
    const error = await invalid(
      analyzeRun({
        skill,
        transcript: TRANSCRIPT,
        outcome: "failure",
        generate: scripted('{"proposals": [{"title": "x",}]}'),
      }),
    );
    expect(error.message).toMatch(/not usable JSON: .*line 1, column \d+/);
    expect(error.message).toMatch(/nothing was recorded/);
    expect(error.details.raw).toBe('{"proposals": [{"title": "x",}]}');
  });

  it("refuses prose without JSON", async () => {
    const error = await invalid(
      analyzeRun({
        skill,
        transcript: TRANSCRIPT,
        outcome: "failure",
        generate: scripted("I think the skill is fine."),
      }),
    );
    expect(error.message).toMatch(/no JSON object found/);
  });

  it("refuses JSON that breaks the schema, naming each path", async () => {
    const bad = answer(proposal({ change: "rewrite", evidence: [] }));
    const error = await invalid(
      analyzeRun({ skill, transcript: TRANSCRIPT, outcome: "failure", generate: scripted(bad) }),
    );
    expect(error.message).toMatch(/proposals\.0\.change/);
    expect(error.message).toMatch(/proposals\.0\.evidence: quote at least one passage/);
  });

  it("drops a proposal whose evidence is not in the transcript, and keeps only real quotes", async () => {
    const madeUp = proposal({ evidence: ["the user said the update was perfect"] });
    const mixed = proposal({
      title: "Keep leadership updates short",
      evidence: ["Too much detail.", "the user asked for bullet points"],
      edits: [
        { before: "- Leadership updates", after: "- Leadership updates (short: progress, plans, problems)" },
      ],
    });
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate: scripted(answer(madeUp, mixed)),
    });
    expect(result.dropped).toEqual([
      { title: madeUp.title, reason: "none of its evidence quotes appear in the transcript" },
    ]);
    expect(result.proposals.map((p) => p.evidence)).toEqual([["Too much detail."]]);
  });

  it("shows rejected ideas to the model and drops them if proposed again, reworded or not", async () => {
    const rejected = [
      {
        title: "Identify the audience along with the communication type",
        edits: proposal().edits!,
        reason: "we always know the audience",
      },
    ];
    const reworded = proposal({ title: "Also identify the audience" });
    const generate = scripted(answer(reworded));
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate,
      rejected,
    });
    expect(generate.calls[0]!.prompt).toMatch(/Already rejected[\s\S]*we always know the audience/);
    expect(result.proposals).toEqual([]);
    expect(result.dropped[0]!.reason).toBe("the user already rejected this idea");
  });

  it("keeps a proposal whose edits do not apply as written, marked for a model merge", async () => {
    const misquoted = proposal({
      edits: [{ before: "1. Identify the communication type", after: "1. Identify the type and audience" }],
    });
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate: scripted(answer(misquoted)),
    });
    expect(result.proposals).toMatchObject([{ applicable: false }]);
    expect(result.proposals[0]!.check).toBeUndefined();
  });

  it("drops a proposal that would break a guard (here: instruction bloat)", async () => {
    const essay = Array.from(
      { length: 120 },
      (_, i) => `- Rule ${i}: always double-check the tone of paragraph ${i}.`,
    ).join("\n");
    const bloated = proposal({ edits: [{ before: "## Keywords", after: `${essay}\n\n## Keywords` }] });
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate: scripted(answer(bloated)),
    });
    expect(result.proposals).toEqual([]);
    expect(result.dropped[0]!.reason).toMatch(/would fail a guard: the body grows by \d+ tokens/);
  });

  it("keeps at most maxProposals", async () => {
    const many = [
      proposal(),
      proposal({
        title: "Short leadership updates",
        evidence: ["Too much detail."],
        edits: [{ before: "- Leadership updates", after: "- Leadership updates (short)" }],
      }),
    ];
    const result = await analyzeRun({
      skill,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate: scripted(answer(...many)),
      maxProposals: 1,
    });
    expect(result.proposals).toHaveLength(1);
    expect(result.dropped).toEqual([
      { title: "Short leadership updates", reason: "more than 1 proposals in one run" },
    ]);
  });
});
