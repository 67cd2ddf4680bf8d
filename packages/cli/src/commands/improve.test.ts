import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createShelf, type Generate, type ImprovementProposal } from "@skillshelf/core";
import { describeWithSharedData, readSharedText } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

const COMMS = readSharedText("skills-corpus/anthropics--skills/skills/internal-comms/SKILL.md");
const OLD_STEP = "1. **Identify the communication type** from the request";
const NEW_STEP = "1. **Identify the communication type and its audience** from the request";
const TRANSCRIPT =
  "user: Write the weekly update.\nassistant: (a technical update)\nuser: This was meant for the leadership team, not engineers.";

let root: string;
const file = () => path.join(root, ".skillshelf", "skills", "internal-comms", "SKILL.md");

async function run(...args: string[]) {
  const io = capture(root, { home: path.join(root, "home") });
  const code = await main(args, io.ctx);
  return { code, out: io.out(), err: io.err() };
}

const modelSays =
  (...proposals: object[]): Generate =>
  async () =>
    `\`\`\`json\n${JSON.stringify({ proposals })}\n\`\`\``;

const proposal = (edits: Array<{ before: string; after: string }>, title = "Identify the audience too") => ({
  title,
  change: "change",
  target: "step",
  rationale: "The update went to the wrong audience; naming it first avoids a rewrite.",
  evidence: ["This was meant for the leadership team, not engineers."],
  edits,
});

/** Runs one analysis the way an app would; returns the stored proposals. */
async function analyse(...proposals: object[]): Promise<ImprovementProposal[]> {
  const shelf = await createShelf({ root, userDirs: [], events: false, generate: modelSays(...proposals) });
  const result = await shelf.improvements.analyze({
    skill: "internal-comms",
    transcript: TRANSCRIPT,
    outcome: "failure",
  });
  await shelf.close();
  return result.proposals;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-improve-"));
  await mkdir(path.dirname(file()), { recursive: true });
  await writeFile(file(), COMMS);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describeWithSharedData("skillshelf improve", () => {
  it("list → show → accept: writes exactly what show displayed, undoable", async () => {
    const [p] = await analyse(proposal([{ before: OLD_STEP, after: NEW_STEP }]));

    const listed = await run("improve", "list");
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      new RegExp(`${p!.id}  internal-comms  pending .* change +Identify the audience too`),
    );

    const shown = await run("improve", "show", p!.id.slice(-6));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("> This was meant for the leadership team, not engineers.");
    expect(shown.out).toContain(`-${OLD_STEP}`);
    expect(shown.out).toContain(`+${NEW_STEP}`);
    expect(shown.out).toMatch(/Guards: ok — body \+\d+ tokens \(limit \+\d+\), 2 line\(s\) added or removed/);

    const accepted = await run("improve", "accept", p!.id);
    expect(accepted).toMatchObject({ code: 0, err: "" });
    expect(accepted.out).toMatch(/internal-comms: accepted .* as version 0\.0\.1/);
    expect(accepted.out).toContain("Undo: skillshelf rollback internal-comms ~1");
    expect(await readFile(file(), "utf8")).toBe(
      COMMS.replace(OLD_STEP, NEW_STEP).replace("LICENSE.txt\n---", "LICENSE.txt\nversion: 0.0.1\n---"),
    );

    expect((await run("improve", "list")).out).toBe("No pending proposals.\n");
    expect((await run("improve", "list", "--status", "accepted")).out).toContain(p!.id);
    const again = await run("improve", "accept", p!.id);
    expect(again).toMatchObject({ code: 1 });
    expect(again.err).toMatch(/already accepted/);

    expect((await run("rollback", "internal-comms", "~1")).code).toBe(0);
    expect(await readFile(file(), "utf8")).toContain(OLD_STEP);
  });

  it("refuses to accept what needs a model merge, and says what to do instead", async () => {
    const [p] = await analyse(
      proposal([{ before: "1. Identify the communication type", after: "1. Identify type and audience" }]),
    );
    expect((await run("improve", "list")).out).toContain("[needs a model merge]");
    expect((await run("improve", "show", p!.id)).out).toMatch(
      /accepting needs a model merge: accept it from your app/,
    );
    const { code, err } = await run("improve", "accept", p!.id);
    expect(code).toBe(1);
    expect(err).toMatch(/do not apply to internal-comms as written; accepting it needs a model merge/);
    expect(await readFile(file(), "utf8")).toBe(COMMS);
  });

  it("refuses a stale proposal whose target text is gone", async () => {
    const [p] = await analyse(proposal([{ before: OLD_STEP, after: NEW_STEP }]));
    await writeFile(file(), COMMS.replace(OLD_STEP, "1. **Work out the kind of message**"));
    const { code, err } = await run("improve", "accept", p!.id);
    expect(code).toBe(1);
    expect(err).toMatch(/changed since proposal .* was made/);
  });

  it("reject records the reason; a reason is required", async () => {
    const [p] = await analyse(proposal([{ before: OLD_STEP, after: NEW_STEP }]));
    expect(await run("improve", "reject", p!.id)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/give a reason/),
    });
    const rejected = await run("improve", "reject", p!.id, "we", "always", "know", "the", "audience");
    expect(rejected.code).toBe(0);
    const json = JSON.parse((await run("improve", "show", p!.id, "--json")).out);
    expect(json.proposal).toMatchObject({ status: "rejected", reason: "we always know the audience" });
    expect((await run("improve", "show", p!.id)).out).toContain("Rejected:  we always know the audience");
  });

  it("lists as JSON and filters by skill; explains bad usage and unknown ids", async () => {
    await analyse(proposal([{ before: OLD_STEP, after: NEW_STEP }]));
    expect(JSON.parse((await run("improve", "list", "--json")).out)).toHaveLength(1);
    expect((await run("improve", "list", "--skill", "other")).out).toBe("No pending proposals for other.\n");
    expect((await run("improve", "list", "--status", "maybe")).code).toBe(2);
    expect((await run("improve")).code).toBe(2);
    expect((await run("improve", "frobnicate")).code).toBe(2);
    expect(await run("improve", "show", "nope")).toMatchObject({
      code: 1,
      err: 'skillshelf improve: no improvement proposal "nope"\n',
    });
  });
});
