/**
 * Fault test: a managed write in another process races a hand edit landing at a random
 * moment around it. Whatever the timing, the hand edit never vanishes: it is in the file
 * (the write got CONFLICT, or the edit came after it) or it is kept in history (the write
 * replaced it).
 *
 * The hand edit changes five bytes in place with one write, as an editor saving in place
 * does, and far from the lines the writer rewrites. SKILLSHELF_FAULT_RACES sets the number
 * of rounds (default 200).
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { sha256 } from "./hash.js";
import { FAULT_SKILL, faultSkillVersion } from "./test-utils/fault-skill.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { disposeWriterBuild, spawnWriter, type WriterProcess } from "./test-utils/spawn-writer.js";
import { createSkillStore } from "./writer.js";

const ROUNDS = Number(process.env.SKILLSHELF_FAULT_RACES ?? 200);
const KEEP = 6;
/** A word deep in the body that every iteration has (step 60 of the padding). */
const ANCHOR = "60. Step 60: check";

let folder: SkillFolder | undefined;
let writer: WriterProcess | undefined;
afterAll(async () => {
  writer?.child.kill("SIGKILL");
  await folder?.cleanup();
  await disposeWriterBuild();
});

function handEdit(file: string, tag: string): void {
  const text = readFileSync(file, "utf8");
  const at = Buffer.byteLength(text.slice(0, text.indexOf(ANCHOR) + ANCHOR.length - "check".length));
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, Buffer.from(tag), 0, tag.length, at);
  } finally {
    closeSync(fd);
  }
}

it(`keeps every hand edit that races a managed write, ${ROUNDS} rounds`, async () => {
  folder = await makeSkillFolder();
  await folder.add(FAULT_SKILL, faultSkillVersion(0));
  const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, keep: KEEP });
  const file = folder.fileOf(FAULT_SKILL);
  writer = await spawnWriter("race", folder.root, KEEP);
  expect(await writer.nextLine()).toBe("ready");

  const outcomes = { conflict: 0, editInFile: 0, editInHistory: 0 };
  const lost: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const tag = `h${String(round).padStart(4, "0")}`;
    const expectedHash = sha256(readFileSync(file));
    const startAt = Date.now() + 20;
    writer.child.stdin!.write(`${expectedHash} w${round} ${startAt}\n`);
    // Anywhere from a little before the write starts to well after it has finished.
    const editAt = startAt - 2 + Math.random() * 14;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, editAt - Date.now())));
    handEdit(file, tag);
    const result = JSON.parse(await writer.nextLine()) as { ok: boolean; code?: string };
    if (!result.ok) {
      expect(result.code, `round ${round}`).toBe("CONFLICT");
      outcomes.conflict++;
    }

    if (readFileSync(file, "utf8").includes(tag)) {
      outcomes.editInFile++;
      continue;
    }
    const versions = await store.versions(FAULT_SKILL);
    const texts = await Promise.all(versions.map((v) => store.read(FAULT_SKILL, v.id)));
    if (texts.some((text) => text.includes(tag))) outcomes.editInHistory++;
    else lost.push(round);
  }
  console.info(`hand-edit fault test: ${ROUNDS} rounds, ${JSON.stringify(outcomes)}, lost ${lost.length}`);
  expect(lost, "rounds whose hand edit is in neither the file nor history").toEqual([]);
}, 300_000);
