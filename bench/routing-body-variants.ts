/**
 * Dev only: how much of each skill's body stage 1 should read. Each variant turns a body into
 * the text the index reads of it (caps of its first characters, and reductions of its first
 * 3,000: fenced code, tables, URLs, long non-prose runs skipped; headings and first
 * paragraphs; repeated lines once). The skills are given with that text as their body, so
 * core (which reads a body's first 3,000 characters) reads exactly it.
 *
 * Prints per variant: dotnet dev recall@1 / recall@3 / none-accuracy at the default threshold
 * and ranking-only (`minScore: 0`) — the only routing set whose skills have bodies, so the
 * CLINC150 and MetaTool figures (and the small-shelf probe, built from CLINC150) cannot move —
 * and, given a skills folder (the mirror), the body characters the index reads over its served
 * skills and how many of the answers to the messages change against the 3,000 cap (each
 * message's whole MatchResult, its candidates' names in order, its top candidate or none; at
 * the defaults and with `{ nearMisses: 5 }`).
 *
 * Run: `node --experimental-strip-types --no-warnings bench/routing-body-variants.ts [<skills dir> <messages.json>]`
 * (`SKILLSHELF_CORE=<dist/index.js>` for another build; `BODY_VARIANTS="a|b"` for some only).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as Core from "@skillshelf/core";
import type { Skill } from "@skillshelf/core";
import { dotnet } from "./routing-data.ts";
import { skillDirOptions } from "./skill-dir.ts";

const { createMatcher, createShelf, evaluateRouting } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof Core;

/** What the index reads of every body today: its first 3,000 characters. */
const HEAD = 3_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|/;
const HEADING = /^ {0,3}#{1,6}\s/;
const URL = /\b(?:https?|ftp):\/\/\S+/g;
/** A run of 32 or more characters without a space: paths, hashes, base64, minified code. */
const LONG_RUN = /\S{32,}/g;

/** The lines of `text` outside fenced code blocks (an unclosed fence runs to the end). */
function withoutFencedCode(lines: string[]): string[] {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open && open[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1]!;
      continue;
    }
    kept.push(line);
  }
  return kept;
}

interface Skips {
  code?: boolean;
  tables?: boolean;
  urls?: boolean;
  runs?: boolean;
}

function reduced(text: string, skips: Skips): string {
  let lines = text.split("\n");
  if (skips.code) lines = withoutFencedCode(lines);
  if (skips.tables) lines = lines.filter((line) => !TABLE_ROW.test(line));
  let out = lines.join("\n");
  if (skips.urls) out = out.replace(URL, " ");
  if (skips.runs) out = out.replace(LONG_RUN, " ");
  return out;
}

/** Headings, and the first paragraph of the body and of each section (code left out). */
function headingsAndFirstParagraphs(text: string): string {
  const kept: string[] = [];
  let inFirstParagraph = true;
  let started = false;
  for (const line of withoutFencedCode(text.split("\n"))) {
    if (HEADING.test(line)) {
      kept.push(line);
      inFirstParagraph = true;
      started = false;
      continue;
    }
    if (line.trim() === "") {
      if (started) inFirstParagraph = false;
      continue;
    }
    if (inFirstParagraph) {
      kept.push(line);
      started = true;
    }
  }
  return kept.join("\n");
}

function linesOnce(text: string): string {
  const seen = new Set<string>();
  return text
    .split("\n")
    .filter((line) => {
      const key = line.trim();
      if (key === "") return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join("\n");
}

type Variant = (body: string) => string;
const head = (body: string) => body.slice(0, HEAD);
const capped =
  (chars: number, reduce: Variant = (t) => t): Variant =>
  (body) =>
    reduce(head(body)).slice(0, chars);

const PROSE: Skips = { code: true, tables: true, urls: true, runs: true };
const ALL_VARIANTS: Record<string, Variant> = {
  "cap 3000": capped(3000),
  "cap 2000": capped(2000),
  "cap 1500": capped(1500),
  "cap 1000": capped(1000),
  "cap 600": capped(600),
  "cap 300": capped(300),
  "cap 0": capped(0),
  "no code": capped(HEAD, (t) => reduced(t, { code: true })),
  "no code, URLs, long runs": capped(HEAD, (t) => reduced(t, { code: true, urls: true, runs: true })),
  "no tables": capped(HEAD, (t) => reduced(t, { tables: true })),
  "prose (no code, tables, URLs, long runs)": capped(HEAD, (t) => reduced(t, PROSE)),
  "headings + first paragraphs": capped(HEAD, headingsAndFirstParagraphs),
  "lines once": capped(HEAD, linesOnce),
  "no code, lines once": capped(HEAD, (t) => linesOnce(reduced(t, { code: true }))),
  "no code, URLs, long runs, lines once": capped(HEAD, (t) =>
    linesOnce(reduced(t, { code: true, urls: true, runs: true })),
  ),
  "no code · cap 2000": capped(2000, (t) => reduced(t, { code: true })),
  "no code · cap 1500": capped(1500, (t) => reduced(t, { code: true })),
  "no code · cap 1000": capped(1000, (t) => reduced(t, { code: true })),
};
const chosen = process.env.BODY_VARIANTS?.split("|");
const VARIANTS = Object.fromEntries(
  Object.entries(ALL_VARIANTS).filter(([name]) => !chosen || chosen.includes(name)),
);

const withBodies = (skills: readonly Skill[], variant: Variant, bodies: readonly string[]): Skill[] =>
  skills.map((skill, i) => ({ ...skill, body: variant(bodies[i] as string) }));

const pct = (x: number) => (x * 100).toFixed(1);
const set = dotnet();
const dotnetBodies = set.skills.map((s) => s.body);

const [dir, messagesFile] = process.argv.slice(2);
let mirror:
  | { skills: Skill[]; bodies: string[]; messages: string[]; base: [string, string, string][] }
  | undefined;
if (dir && messagesFile) {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-state-"));
  const shelf = await createShelf({ ...skillDirOptions(dir), stateDir });
  // Plain copies, bodies read from their files once.
  const skills = shelf.skills().map((skill) => ({ ...skill }));
  await shelf.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  const messages = (JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[]).slice(0, 400);
  mirror = { skills, bodies: skills.map((s) => s.body), messages, base: [] };
}

/** Per message and option set: the whole result, its candidates' names in order, its top (or none). */
const answers = (skills: Skill[], messages: string[]): [string, string, string][] => {
  const matcher = createMatcher();
  return messages.flatMap((m) =>
    [matcher.match(skills, m), matcher.match(skills, m, { nearMisses: 5 })].map(
      (r) =>
        [JSON.stringify(r), r.candidates.map((c) => c.name).join(","), r.candidates[0]?.name ?? ""] as [
          string,
          string,
          string,
        ],
    ),
  );
};
if (mirror) mirror.base = answers(withBodies(mirror.skills, capped(HEAD), mirror.bodies), mirror.messages);

console.log(
  "| variant | dotnet dev r@1 / r@3 / none (default) | ranking only r@1 / r@3 | dotnet body chars | mirror body chars | mirror answers changed: whole / candidates / top |",
);
console.log("|---|---:|---:|---:|---:|---:|");
for (const [name, variant] of Object.entries(VARIANTS)) {
  const skills = withBodies(set.skills, variant, dotnetBodies);
  const atDefault = createMatcher();
  const ranking = createMatcher({ minScore: 0 });
  const d = evaluateRouting(set.dev, (m) => atDefault.match(skills, m));
  const r = evaluateRouting(set.dev, (m) => ranking.match(skills, m));
  const dotnetChars = skills.reduce((n, s) => n + s.body.length, 0);
  let mirrorChars = "";
  let changed = "";
  if (mirror) {
    const mirrorSkills = withBodies(mirror.skills, variant, mirror.bodies);
    mirrorChars = mirrorSkills.reduce((n, s) => n + s.body.length, 0).toLocaleString("en");
    const mine = answers(mirrorSkills, mirror.messages);
    const differ = (k: number) => mine.filter((a, i) => a[k] !== mirror.base[i]?.[k]).length;
    changed = `${differ(0)} / ${differ(1)} / ${differ(2)} of ${mine.length}`;
  }
  console.log(
    `| ${name} | ${pct(d.recallAt1)} / ${pct(d.recallAt3)} / ${pct(d.none.accuracy)} | ${pct(r.recallAt1)} / ${pct(r.recallAt3)} | ${dotnetChars.toLocaleString("en")} | ${mirrorChars} | ${changed} |`,
  );
}
