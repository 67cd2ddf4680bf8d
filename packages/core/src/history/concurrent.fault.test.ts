/**
 * Fault test 2: two processes write the same skill at the same moment, both believing the
 * same version is current (same expectedHash). Every round, exactly one wins; the other
 * gets CONFLICT; the file is the winner's content, the version both started from is kept,
 * and the loser's content appears nowhere (no lost update, no half-applied write).
 *
 * SKILLSHELF_FAULT_RACES sets the number of rounds (default 150).
 */
import { readFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { sha256 } from "./hash.js";
import { FAULT_SKILL, faultSkillVersion, nextFaultContent } from "./test-utils/fault-skill.js";
import { makeSkillFolder, type SkillFolder } from "./test-utils/skill-folder.js";
import { disposeWriterBuild, spawnWriter, type WriterProcess } from "./test-utils/spawn-writer.js";
import { createSkillStore } from "./writer.js";

const ROUNDS = Number(process.env.SKILLSHELF_FAULT_RACES ?? 150);
const KEEP = 5;

let folder: SkillFolder | undefined;
const writers: WriterProcess[] = [];
afterAll(async () => {
  for (const writer of writers) writer.child.kill("SIGKILL");
  await folder?.cleanup();
  await disposeWriterBuild();
});

it(`lets exactly one of two racing processes win, ${ROUNDS} rounds`, async () => {
  folder = await makeSkillFolder();
  await folder.add(FAULT_SKILL, faultSkillVersion(0));
  const store = createSkillStore({ source: folder.source, stateDir: folder.stateDir, keep: KEEP });
  const file = folder.fileOf(FAULT_SKILL);
  const [a, b] = await Promise.all([
    spawnWriter("race", folder.root, KEEP),
    spawnWriter("race", folder.root, KEEP),
  ]);
  writers.push(a!, b!);
  expect(await a!.nextLine()).toBe("ready");
  expect(await b!.nextLine()).toBe("ready");

  const wins = { a: 0, b: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const before = readFileSync(file);
    const expectedHash = sha256(before);
    // Both start writing at the same wall-clock millisecond.
    const startAt = Date.now() + 25;
    a!.child.stdin!.write(`${expectedHash} a${round} ${startAt}\n`);
    b!.child.stdin!.write(`${expectedHash} b${round} ${startAt}\n`);
    const results = (await Promise.all([a!.nextLine(), b!.nextLine()])).map(
      (line) => JSON.parse(line) as { ok: boolean; hash?: string; code?: string },
    );

    const winners = results.filter((r) => r.ok);
    expect(winners, `round ${round}: exactly one winner`).toHaveLength(1);
    expect(results.find((r) => !r.ok)?.code, `round ${round}: the loser gets CONFLICT`).toBe("CONFLICT");
    const winner = results[0]!.ok ? "a" : "b";
    wins[winner]++;

    const after = readFileSync(file, "utf8");
    expect(sha256(after)).toBe(winners[0]!.hash);
    const tagged = (tag: string) => nextFaultContent(before.toString("utf8"), tag);
    expect(after).toContain(`(${winner}${round})`);
    const withoutVersion = (text: string) => text.replace(/^version: .*\n/m, "");
    expect(withoutVersion(after)).toBe(withoutVersion(tagged(`${winner}${round}`)));
    // The version both started from is kept, right behind the winner's.
    expect(await store.read(FAULT_SKILL, "~1")).toBe(before.toString("utf8"));
  }

  // Nothing of any loser anywhere: not in the file, not in history.
  const versions = await store.versions(FAULT_SKILL);
  const { records } = await store.ledger.read({ types: ["write"] });
  expect(records).toHaveLength(ROUNDS);
  for (const version of versions) {
    const text = await store.read(FAULT_SKILL, version.id);
    const tag = /\((\w)(\d+)\)/.exec(text);
    if (tag) expect(records.some((r) => r.after === version.hash)).toBe(true);
  }
  expect(versions).toHaveLength(KEEP + 1);
  console.info(
    `concurrent-writer fault test: ${ROUNDS} rounds, wins ${JSON.stringify(wins)}, 0 lost updates`,
  );
}, 300_000);
