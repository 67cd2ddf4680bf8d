/**
 * Two core builds' stage-1 answers on a real shelf loaded from files (the mirror), where the
 * bodies are deferred and the index reads the kept starts — a path the routing sets (skills
 * built in memory) never take. Each of the first 400 messages at the defaults and with
 * `{ nearMisses: 5 }`: how many whole MatchResults, candidate lists (names in order) and top
 * candidates (or none) differ. Then, for the second build, the same answers from a matcher over
 * plain copies of its skills (bodies read whole, never deferred): they must not differ, or the
 * kept starts read otherwise than a body does.
 *
 * Run: `node --experimental-strip-types --no-warnings bench/first-match-answers.ts <dist/index.js> <dist/index.js> <skills dir> <messages.json>`
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as Core from "@skillshelf/core";
import type { MatchResult, Skill } from "@skillshelf/core";
import { skillDirOptions } from "./skill-dir.ts";

const [a, b, dir, messagesFile] = process.argv.slice(2);
if (!a || !b || !dir || !messagesFile)
  throw new Error(
    "usage: first-match-answers.ts <dist/index.js> <dist/index.js> <skills dir> <messages.json>",
  );
const messages = (JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[]).slice(0, 400);

type Answer = [whole: string, candidates: string, top: string];
const answer = (r: MatchResult): Answer => [
  JSON.stringify(r),
  r.candidates.map((c) => c.name).join(","),
  r.candidates[0]?.name ?? "",
];
const answersOf = (match: (m: string, o?: Core.MatchOptions) => MatchResult): Answer[] =>
  messages.flatMap((m) => [answer(match(m)), answer(match(m, { nearMisses: 5 }))]);

async function loaded(dist: string): Promise<{ answers: Answer[]; plain: () => Answer[] }> {
  const core = (await import(dist)) as typeof Core;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
  const shelf = await core.createShelf({ ...skillDirOptions(dir), stateDir });
  const answers = answersOf((m, o) => shelf.match(m, o));
  const skills: Skill[] = shelf.skills().map((skill) => ({ ...skill }));
  await shelf.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  return {
    answers,
    plain: () => {
      const matcher = core.createMatcher();
      return answersOf((m, o) => matcher.match(skills, m, o));
    },
  };
}

const count = (x: Answer[], y: Answer[]) =>
  [0, 1, 2].map((k) => x.filter((answer, i) => answer[k] !== y[i]?.[k]).length);
const first = await loaded(a);
const second = await loaded(b);
const [whole, candidates, top] = count(first.answers, second.answers);
const [plainWhole] = count(second.answers, second.plain());
console.log(
  JSON.stringify({ compared: first.answers.length, whole, candidates, top, secondPlainDiffer: plainWhole }),
);
