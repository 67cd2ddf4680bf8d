import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { describeWithSharedData, readSharedText } from "@skillshelf/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

const COMMS = readSharedText("skills-corpus/anthropics--skills/skills/internal-comms/SKILL.md");

let root: string;
const file = () => path.join(root, ".skillshelf", "skills", "internal-comms", "SKILL.md");

async function run(...args: string[]) {
  const io = capture(root, { home: path.join(root, "home") });
  const code = await main(args, io.ctx);
  return { code, out: io.out(), err: io.err() };
}

/** Two managed writes: versions 0.0.1 and 0.0.2 on top of the original. */
async function twoWrites() {
  const shelf = await createShelf({ root, userDirs: [], events: false });
  const first = await shelf.write("internal-comms", COMMS.replace("- FAQ responses\n", ""), {
    expectedHash: shelf.get("internal-comms")!.hash,
  });
  const second = await shelf.write("internal-comms", first.content.replace("## Keywords", "## Key words"), {
    expectedHash: first.hash,
  });
  await shelf.close();
  return { first, second };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-history-"));
  await mkdir(path.dirname(file()), { recursive: true });
  await writeFile(file(), COMMS);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describeWithSharedData("skillshelf history", () => {
  it("lists kept versions, the current one first, with how to compare and restore", async () => {
    const { first, second } = await twoWrites();
    const { code, out } = await run("history", "internal-comms");
    expect(code).toBe(0);
    const rows = out.split("\n").filter((l) => /^[* ] (current|~\d)/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^\\* current  ${second.versionId}  0\\.0\\.2 .* write `));
    expect(rows[1]).toMatch(new RegExp(`^  ~1 +${first.versionId}  0\\.0\\.1 `));
    expect(rows[2]).toMatch(/^ {2}~2 .*_none_.* - .*before first write/);
    expect(out).toContain("2 earlier versions kept. Compare: skillshelf diff internal-comms ~1");
  });

  it("prints JSON", async () => {
    await twoWrites();
    const { out } = await run("history", "internal-comms", "--json");
    const json = JSON.parse(out);
    expect(json.versions.map((v: { version?: string }) => v.version ?? null)).toEqual([
      "0.0.2",
      "0.0.1",
      null,
    ]);
  });

  it("says when nothing is kept yet", async () => {
    const { code, out } = await run("history", "internal-comms");
    expect(code).toBe(0);
    expect(out).toMatch(/No versions kept yet/);
  });

  it("fails clearly for an unknown skill, and on bad usage", async () => {
    expect(await run("history", "nope")).toMatchObject({
      code: 1,
      err: 'skillshelf history: no skill named "nope"\n',
    });
    expect((await run("history")).code).toBe(2);
  });
});

describeWithSharedData("skillshelf diff", () => {
  it("shows a unified diff to the current file by default", async () => {
    await twoWrites();
    const { code, out } = await run("diff", "internal-comms", "~2");
    expect(code).toBe(0);
    expect(out).toMatch(/^--- internal-comms@.*_none_/m);
    expect(out).toContain("\n-- FAQ responses\n");
    expect(out).toContain("\n+## Key words\n");
    expect(out).toContain("\n+version: 0.0.2\n");
  });

  it("compares two named versions, and says when they are identical", async () => {
    const { first } = await twoWrites();
    const { out } = await run("diff", "internal-comms", "0.0.1", "~1", "-U", "0");
    expect(out).toBe(`internal-comms: 0.0.1 and ~1 are identical\n`);
    const between = await run("diff", "internal-comms", first.versionId.slice(0, -3), "current", "-U", "0");
    expect(between.out).toContain("-## Keywords\n+## Key words");
  });

  it("explains an unknown version", async () => {
    await twoWrites();
    const { code, err } = await run("diff", "internal-comms", "~9");
    expect(code).toBe(1);
    expect(err).toMatch(/has only 2 earlier version\(s\)/);
  });
});

describeWithSharedData("skillshelf rollback", () => {
  it("restores a kept version as a new version, and says how to undo it", async () => {
    const { first } = await twoWrites();
    const { code, out } = await run("rollback", "internal-comms", "~1");
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`internal-comms: restored ${first.versionId} as version 0\\.0\\.3`));
    expect(await readFile(file(), "utf8")).toBe(first.content.replace("version: 0.0.1", "version: 0.0.3"));

    const undo = /Undo: skillshelf rollback internal-comms (\S+)/.exec(out)![1]!;
    expect((await run("rollback", "internal-comms", undo)).code).toBe(0);
    expect(await readFile(file(), "utf8")).toContain("## Key words");
  });

  it("refuses with CONFLICT when --expected-hash does not match", async () => {
    await twoWrites();
    const { code, err } = await run("rollback", "internal-comms", "~1", "--expected-hash", "0".repeat(64));
    expect(code).toBe(1);
    expect(err).toMatch(/changed since it was read .* nothing was written/);
  });
});
