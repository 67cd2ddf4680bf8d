import { readFile, writeFile } from "node:fs/promises";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { sha256 } from "../history/hash.js";
import { corpusSkill } from "../history/test-utils/corpus.js";
import { makeSkillFolder, type SkillFolder } from "../history/test-utils/skill-folder.js";
import { createSkillStore, type SkillStore } from "../history/writer.js";
import { ImproveError } from "./errors.js";
import { createImprovements, type Improvements } from "./improvements.js";
import { answer, proposal, scripted, TRANSCRIPT } from "./test-utils/scripted.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
const NAME = "internal-comms";
const OLD_STEP = "1. **Identify the communication type** from the request";
const NEW_STEP =
  "1. **Identify the communication type and its audience** from the request (ask if it does not say)";

let folder: SkillFolder;
let store: SkillStore;
let improvements: Improvements;

beforeEach(async () => {
  folder = await makeSkillFolder();
  await folder.add(NAME, COMMS);
  store = createSkillStore({ source: folder.source, stateDir: folder.stateDir });
  improvements = createImprovements({ source: folder.source, store, stateDir: folder.stateDir });
});
afterEach(() => folder.cleanup());

const file = () => readFile(folder.fileOf(NAME), "utf8");
const ledgerTypes = async () => (await store.ledger.read()).records.map((r) => r.type);

async function propose(...proposals: Parameters<typeof proposal>[0][]) {
  const result = await improvements.analyze({
    skill: NAME,
    transcript: TRANSCRIPT,
    outcome: { status: "failure", feedback: "wrong audience" },
    generate: scripted(answer(...proposals.map((p) => proposal(p)))),
  });
  return result.proposals;
}

async function improveError(promise: Promise<unknown>, code: ImproveError["code"]): Promise<ImproveError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImproveError);
  expect((error as ImproveError).code).toBe(code);
  return error as ImproveError;
}

describeWithSharedData("analyze", () => {
  it("stores proposals as pending with the hash they were made against; nothing else changes", async () => {
    const [p] = await propose({});
    expect(p).toMatchObject({ skill: NAME, status: "pending", baseHash: sha256(COMMS), applicable: true });
    expect(await file()).toBe(COMMS);
    expect(await improvements.list({ status: "pending" })).toEqual([p]);
    const { records } = await store.ledger.read();
    expect(records).toMatchObject([
      { type: "proposed", proposal: p!.id, before: sha256(COMMS), after: sha256(COMMS) },
      { type: "analyzed", note: "failure", reason: "wrong audience" },
    ]);
  });

  it("writes nothing when the model misbehaves", async () => {
    await improveError(
      improvements.analyze({
        skill: NAME,
        transcript: TRANSCRIPT,
        outcome: "failure",
        generate: scripted("```json\n{oops}\n```"),
      }),
      "INVALID_MODEL_OUTPUT",
    );
    expect(await improvements.list()).toEqual([]);
    expect(await ledgerTypes()).toEqual([]);
  });

  it("needs a model", async () => {
    await improveError(
      improvements.analyze({ skill: NAME, transcript: TRANSCRIPT, outcome: "failure" }),
      "NEEDS_MODEL",
    );
  });

  it("feedback bias: runs that went well are recorded and shown to later analyses", async () => {
    await improvements.recordPositive(NAME, { note: "status update for leadership was spot on" });
    await improvements.analyze({
      skill: NAME,
      transcript: TRANSCRIPT,
      outcome: "success",
      generate: scripted(answer()),
    });
    expect(await improvements.record(NAME)).toMatchObject({ positive: 2, positiveOnCurrent: 2, problems: 0 });

    const generate = scripted(answer());
    await improvements.analyze({ skill: NAME, transcript: TRANSCRIPT, outcome: "failure", generate });
    expect(generate.calls[0]!.prompt).toMatch(
      /2 run\(s\) recorded as going well \(2 on the current version\)/,
    );
    expect(generate.calls[0]!.prompt).toContain("went well: status update for leadership was spot on");
    expect(generate.calls[0]!.system).toMatch(/do not over-correct after one bad run/);
  });
});

describeWithSharedData("accept", () => {
  it("applies the edits exactly, through a managed write, and records the decision", async () => {
    const [p] = await propose({});
    const result = await improvements.accept(p!.id);

    expect(result).toMatchObject({ mergedBy: "edits", rebased: false, flags: [] });
    const now = await file();
    expect(now).toBe(
      COMMS.replace(OLD_STEP, NEW_STEP).replace("LICENSE.txt\n---", "LICENSE.txt\nversion: 0.0.1\n---"),
    );
    expect(result.proposal).toMatchObject({
      status: "accepted",
      result: { hash: sha256(now), version: "0.0.1", mergedBy: "edits" },
    });
    expect(await store.read(NAME, "~1")).toBe(COMMS);
    const accepted = (await store.ledger.read({ types: ["accepted"] })).records;
    expect(accepted).toMatchObject([
      { proposal: p!.id, before: sha256(COMMS), after: sha256(now), version: "0.0.1" },
    ]);
    expect(accepted[0]!.tokens!.after).toBeGreaterThan(accepted[0]!.tokens!.before);

    await improveError(improvements.accept(p!.id), "NOT_PENDING");
  });

  it("lets only one of two simultaneous accepts through", async () => {
    const [p] = await propose({});
    const results = await Promise.allSettled([improvements.accept(p!.id), improvements.accept(p!.id)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(
      ((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as ImproveError).code,
    ).toBe("NOT_PENDING");
  });

  it("re-bases a proposal made against an older version when its target text still applies", async () => {
    const [p] = await propose({});
    const edited = COMMS.replace("- Incident reports\n", "- Incident reports\n- Postmortems\n");
    await store.write(NAME, edited, { expectedHash: sha256(COMMS) });

    const result = await improvements.accept(p!.id);
    expect(result).toMatchObject({ rebased: true, mergedBy: "edits" });
    expect(await file()).toContain("- Postmortems\n");
    expect(await file()).toContain(NEW_STEP);
  });

  it("refuses a stale proposal whose target text is gone, writing nothing", async () => {
    const [p] = await propose({});
    const edited = COMMS.replace(OLD_STEP, "1. **Work out what kind of message this is**");
    const written = await store.write(NAME, edited, { expectedHash: sha256(COMMS) });

    const error = await improveError(improvements.accept(p!.id), "STALE");
    expect(error.message).toMatch(/changed since proposal .* was made/);
    expect(await file()).toBe(written.content);
    expect((await improvements.get(p!.id)).status).toBe("pending");
  });

  it("finishes an accept that was interrupted after writing", async () => {
    const [p] = await propose({});
    await store.write(NAME, COMMS.replace(OLD_STEP, NEW_STEP), { expectedHash: sha256(COMMS) });
    const result = await improvements.accept(p!.id);
    expect(result.mergedBy).toBe("already-applied");
    expect(result.write).toBeUndefined();
    expect((await improvements.get(p!.id)).status).toBe("accepted");
  });

  it("shows what accepting would write, without writing", async () => {
    const [p] = await propose({});
    const preview = await improvements.preview(p!.id.slice(-6));
    expect(preview).toMatchObject({ stale: false, applicable: true, check: { ok: true } });
    expect(preview.diff).toContain(`-${OLD_STEP}`);
    expect(preview.diff).toContain(`+${NEW_STEP}`);
    expect(await file()).toBe(COMMS);
  });

  it("keeps the messages holding the evidence beside the proposal, for review", async () => {
    const [p] = await propose({ evidence: ["Too much detail."] });
    expect(p!.excerpt).toEqual([TRANSCRIPT[1], TRANSCRIPT[2]]);
    expect((await improvements.get(p!.id)).excerpt).toEqual(p!.excerpt);
  });

  it("flags instruction bloat when accepted proposals keep growing the skill", async () => {
    const lines = ["- Postmortems", "- Onboarding notes", "- Quarterly reviews"];
    let flags: string[] = [];
    for (const line of lines) {
      const current = await file();
      const anchor = current.includes("- Incident reports\n") ? "- Incident reports" : undefined;
      const [p] = await propose({
        title: `Cover ${line.slice(2)}`,
        evidence: ["Too much detail."],
        edits: [{ before: `${anchor}\n`, after: `${anchor}\n${line}\n` }],
      });
      flags = (await improvements.accept(p!.id)).flags;
    }
    expect(flags).toEqual([
      expect.stringMatching(/^instruction bloat: the body grew with each of the last 3/),
    ]);
    // The flag goes into the next analysis too.
    const generate = scripted(answer());
    await improvements.analyze({ skill: NAME, transcript: TRANSCRIPT, outcome: "failure", generate });
    expect(generate.calls[0]!.prompt).toMatch(/instruction bloat/);
  });
});

describeWithSharedData("accept with a model merge (edits that do not apply as written)", () => {
  const misquoted = {
    edits: [{ before: "1. Identify the communication type", after: "1. Identify the type and audience" }],
  };
  const merged = COMMS.replace(OLD_STEP, NEW_STEP);

  it("needs a model, and says how to proceed", async () => {
    const [p] = await propose(misquoted);
    expect(p!.applicable).toBe(false);
    const error = await improveError(improvements.accept(p!.id), "NEEDS_MODEL");
    expect(error.message).toMatch(/pass `generate`/);
    await improveError(
      improvements.accept(p!.id, { merge: "edits", generate: scripted(merged) }),
      "NEEDS_MODEL",
    );
  });

  it("merges with the model (a second call), fenced answers included", async () => {
    const [p] = await propose(misquoted);
    const generate = scripted(`\`\`\`markdown\n${merged}\`\`\``);
    const result = await improvements.accept(p!.id, { generate });
    expect(result.mergedBy).toBe("model");
    expect(generate.calls[0]!.prompt).toContain(
      "Approved change: Identify the audience along with the communication type",
    );
    expect(await file()).toContain(NEW_STEP);
  });

  const misbehaving: Array<[string, string, string]> = [
    [
      "rewrites the description (semantic drift)",
      merged.replace("A set of resources to help me write", "Write"),
      "description",
    ],
    [
      "adds 2,000 tokens of rules (bloat)",
      merged.replace(
        "## Keywords",
        `${"- Always re-read the request twice before you write anything at all.\n".repeat(120)}\n## Keywords`,
      ),
      "growth",
    ],
    [
      "rewrites the whole body (over-specialisation)",
      merged.replace(/^- (.*)$/gm, "- $1 for the payments team only"),
      "change-size",
    ],
    ["answers with prose instead of a file", "Sure! I have updated the skill as requested.", "parse"],
    ["grants itself tools", merged.replace("license:", "allowed-tools: Bash\nlicense:"), "permissions"],
    ["renames the skill", merged.replace("name: internal-comms", "name: comms"), "name"],
  ];
  it.each(misbehaving)("refuses a merge that %s, writing nothing", async (_, answerText, guard) => {
    const [p] = await propose(misquoted);
    const error = await improveError(
      improvements.accept(p!.id, { generate: scripted(answerText) }),
      "GUARD_FAILED",
    );
    expect((error.details.violations as Array<{ guard: string }>).map((v) => v.guard)).toContain(guard);
    expect(error.message).toMatch(/nothing was written/);
    expect(await file()).toBe(COMMS);
    expect((await improvements.get(p!.id)).status).toBe("pending");
    expect(await ledgerTypes()).not.toContain("accepted");
  });
});

describeWithSharedData("reject", () => {
  it("records the reason, and later analyses do not propose the idea again", async () => {
    const [p] = await propose({});
    const rejected = await improvements.reject(p!.id, "our requests always name the audience");
    expect(rejected).toMatchObject({ status: "rejected", reason: "our requests always name the audience" });
    expect((await store.ledger.read({ types: ["rejected"] })).records).toMatchObject([
      {
        proposal: p!.id,
        reason: "our requests always name the audience",
        before: sha256(COMMS),
        after: sha256(COMMS),
      },
    ]);
    await improveError(improvements.accept(p!.id), "NOT_PENDING");

    const again = scripted(answer(proposal()));
    const result = await improvements.analyze({
      skill: NAME,
      transcript: TRANSCRIPT,
      outcome: "failure",
      generate: again,
    });
    expect(again.calls[0]!.prompt).toContain("our requests always name the audience");
    expect(result.proposals).toEqual([]);
    expect(result.dropped).toMatchObject([{ reason: "the user already rejected this idea" }]);
  });
});

describeWithSharedData("records", () => {
  it("finds proposals by unique prefix or suffix and explains bad ids and damaged records", async () => {
    const [p] = await propose({});
    expect((await improvements.get(p!.id.slice(0, 12))).id).toBe(p!.id);
    await improveError(improvements.get("nope"), "NOT_FOUND");
    await writeFile(`${folder.stateDir}/improvements/${p!.id}.json`, "{ damaged");
    const error = await improveError(improvements.get(p!.id), "INVALID_RECORD");
    expect(error.message).toMatch(/is not valid JSON/);
  });

  it("every decision is in the ledger, rollback included", async () => {
    const [p, q] = await propose(
      {},
      {
        title: "Short leadership updates",
        evidence: ["Too much detail."],
        edits: [{ before: "- Leadership updates", after: "- Leadership updates (short)" }],
      },
    );
    await improvements.accept(p!.id);
    await improvements.reject(q!.id, "not now");
    await store.rollback(NAME, "~1");
    expect(await ledgerTypes()).toEqual([
      "proposed",
      "proposed",
      "analyzed",
      "accepted",
      "rejected",
      "rollback",
    ]);
    const { records } = await store.ledger.read();
    expect(records.every((r) => r.before !== undefined && r.after !== undefined && r.at)).toBe(true);
  });
});
