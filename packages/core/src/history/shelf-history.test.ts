/** The history and improvement API as a host sees it: through createShelf. */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithSharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { answer, proposal, scripted, TRANSCRIPT } from "../improve/test-utils/scripted.js";
import { createShelf, type Shelf } from "../shelf.js";
import { SkillWriteError } from "./errors.js";
import { corpusSkill } from "./test-utils/corpus.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
const DEBUGGING = corpusSkill("obra--superpowers/skills/systematic-debugging/SKILL.md");

let root: string;
let shelf: Shelf;
const projectFile = () => join(root, ".skillshelf", "skills", "internal-comms", "SKILL.md");
const userFile = () => join(root, "home", "skills", "systematic-debugging", "SKILL.md");

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-shelf-history-"));
  await mkdir(join(root, ".skillshelf", "skills", "internal-comms"), { recursive: true });
  await writeFile(projectFile(), COMMS);
  await mkdir(join(root, "home", "skills", "systematic-debugging"), { recursive: true });
  await writeFile(userFile(), DEBUGGING);
  shelf = await createShelf({
    root,
    userDirs: [join(root, "home", "skills")],
    events: false,
    history: { keep: 3 },
  });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

/** A hand edit the loader's change check is sure to see. */
async function editByHand(file: string, text: string) {
  await writeFile(file, text);
  const later = new Date(Date.now() + 5_000);
  await utimes(file, later, later);
}

describeWithSharedData("shelf history API", () => {
  it("write → get serves the new version at once; history, read, diff and rollback work by name", async () => {
    const before = shelf.get("internal-comms")!;
    const result = await shelf.write("internal-comms", COMMS.replace("- FAQ responses\n", ""), {
      expectedHash: before.hash,
    });

    expect(shelf.get("internal-comms")).toMatchObject({ hash: result.hash, version: "0.0.1" });
    expect((await shelf.history("internal-comms")).map((v) => v.version)).toEqual(["0.0.1", undefined]);
    expect(await shelf.read("internal-comms", "~1")).toBe(COMMS);
    expect(await shelf.diff("internal-comms", "~1")).toContain("\n-- FAQ responses\n");

    const back = await shelf.rollback("internal-comms", "~1");
    expect(shelf.get("internal-comms")!.body).toContain("- FAQ responses");
    expect(back.version).toBe("0.0.2");
  });

  it("a stale writer gets CONFLICT", async () => {
    const stale = shelf.get("internal-comms")!.hash;
    await shelf.write("internal-comms", COMMS.replace("- FAQ responses\n", ""), { expectedHash: stale });
    await expect(shelf.write("internal-comms", COMMS, { expectedHash: stale })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("writes user-scope skills too", async () => {
    const skill = shelf.get("systematic-debugging")!;
    expect(skill.scope).toBe("user");
    await shelf.write(
      "systematic-debugging",
      DEBUGGING.replace("## The Iron Law", "## The Iron Law (read first)"),
      {
        expectedHash: skill.hash,
      },
    );
    expect(await readFile(userFile(), "utf8")).toContain("(read first)");
  });

  it("refuses builtin skills: they are code", async () => {
    const builtin = shelf.skills().find((s) => s.scope === "builtin")!;
    const error = await shelf
      .write(builtin.name, "---\nname: x\ndescription: y\n---\n", { expectedHash: builtin.hash })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillWriteError);
    expect(error).toMatchObject({ code: "NOT_WRITABLE" });
  });

  it("refresh() keeps a hand edit of a managed skill on record", async () => {
    const written = await shelf.write("internal-comms", COMMS.replace("- FAQ responses\n", ""), {
      expectedHash: shelf.get("internal-comms")!.hash,
    });
    const byHand = written.content.replace("## Keywords", "## Key words");
    await editByHand(projectFile(), byHand);
    const refreshed = await shelf.refresh();
    expect(refreshed.updated).toEqual(["internal-comms"]);

    const versions = await shelf.history("internal-comms");
    expect(versions.map((v) => [v.current, v.recorded, v.source])).toEqual([
      [true, true, "external-edit"],
      [false, true, "write"],
      [false, true, "initial"],
    ]);
    expect(await shelf.read("internal-comms", "~1")).toBe(written.content);
  });

  it("improvements use the shelf's generate and write through the managed path", async () => {
    await shelf.close();
    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      generate: scripted(answer(proposal())),
    });
    const { proposals } = await shelf.improvements.analyze({
      skill: "internal-comms",
      transcript: TRANSCRIPT,
      outcome: "failure",
    });
    const accepted = await shelf.improvements.accept(proposals[0]!.id);
    expect(shelf.get("internal-comms")).toMatchObject({ hash: accepted.write!.hash, version: "0.0.1" });
    expect((await shelf.history("internal-comms"))[0]!.source).toBe("accepted");
  });
});
