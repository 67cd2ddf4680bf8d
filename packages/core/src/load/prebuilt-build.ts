/**
 * `skillshelf build`: loads the skill folders the way a shelf does and writes what the load
 * and the first index build produced to one file (prebuilt-format.ts), which `createShelf`
 * then reads instead of parsing every SKILL.md (prebuilt.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { everydayWeightPairs, referenceFromSkills, referenceKnownShare } from "../match/familiarity.js";
import { buildLexicalIndex, readSkillTerms, type SkillTerms } from "../match/lexical-index.js";
import { createMatcher, type MatcherOptions } from "../match/matcher.js";
import { phraseFormsOf, termTuningKey } from "../match/skill-index.js";
import { Vocabulary } from "../match/vocabulary.js";
import { SCHEMA_FILE } from "../parameters/skill-parameters.js";
import { builtinRoleSkills } from "../roles/builtin-roles.js";
import { offerableSkills } from "../session/session.js";
import type { BuiltinSkill, Diagnostic, ParseMode, Skill } from "../types.js";
import { SkillLoader } from "./loader.js";
import { coreVersion, DEFAULT_PREBUILT_FILE, openPrebuiltShelf, probeTerms, storedPath } from "./prebuilt.js";
import {
  encodePrebuiltFile,
  PREBUILT_FORMAT,
  PREBUILT_VERSION,
  type StoredFile,
  type StoredLostStub,
  type StoredShelf,
} from "./prebuilt-format.js";
import { encodeLayout, type StoredLayout } from "./prebuilt-layout.js";
import { signatureOf } from "./signature.js";
import { resolveSources, type SourceOptions } from "./sources.js";

export interface BuildShelfOptions extends SourceOptions {
  mode?: ParseMode;
  /** The matcher options the app uses (the index terms depend on its field weights). */
  matcher?: MatcherOptions;
  /** Where to write; default `<root>/.skillshelf/prebuilt-shelf.bin`, where createShelf looks. */
  out?: string;
  /**
   * The shelf's `builtins` and `builtinRoles` (default on), as the app passes them: the build
   * resolves the list the app's shelf will offer, and lays the index out for exactly that list.
   */
  builtins?: BuiltinSkill[];
  builtinRoles?: boolean;
}

export interface BuildShelfResult {
  file: string;
  /** Skill files recorded, and the skills they resolve to. */
  files: number;
  skills: number;
  bytes: number;
  /** The load's diagnostics (also stored, per file, in the prebuilt shelf). */
  diagnostics: readonly Diagnostic[];
}

export async function buildPrebuiltShelf(options: BuildShelfOptions = {}): Promise<BuildShelfResult> {
  const root = path.resolve(options.root ?? process.cwd());
  const mode = options.mode ?? "lenient";
  const sources = resolveSources({ ...options, root });
  // The builtins a shelf adds, resolved with the files as a shelf resolves them (a builtin
  // role takes its name from an ordinary skill): the list offered is the shelf's.
  const builtins = [
    ...(options.builtins ?? []),
    ...(options.builtinRoles === false ? [] : builtinRoleSkills()),
  ];
  const loader = new SkillLoader({ sources, mode, builtins });
  await loader.load();

  const tuning = createMatcher(options.matcher).tuning;
  const vocabulary = new Vocabulary();
  const files: StoredFile[] = [];
  const termRuns: Int32Array[] = [];
  /** Each recorded skill's terms and its position in `files`, for the layout. */
  const recorded = new Map<Skill, { terms: SkillTerms; position: number }>();
  let termCount = 0;
  let skills = 0;
  for (const record of loader.records()) {
    if (!record.sig) continue; // not read as a plain file: the app reads it itself
    const stored: StoredFile = {
      path: storedPath(root, record.file),
      size: record.sig.size,
      mtimeMs: record.sig.mtimeMs,
      diagnostics: record.diagnostics.map((d) => ({ ...d, file: storedPath(root, d.file) })),
    };
    if (signatureOf(path.join(path.dirname(record.file), SCHEMA_FILE)) !== undefined) stored.schema = true;
    if (record.skill) {
      if (record.lost) {
        stored.skill = lostStub(record.skill);
        stored.lost = true;
      } else {
        stored.skill = storedSkill(record.skill);
        skills++;
        const terms = readSkillTerms(record.skill, vocabulary, tuning);
        stored.terms = [termCount, terms.length];
        stored.phrases = phraseFormsOf(record.skill);
        termRuns.push(terms);
        termCount += terms.length;
        recorded.set(record.skill, { terms, position: files.length });
      }
    }
    files.push(stored);
  }
  const laidOut = layOut(offerableSkills(loader.skills()), recorded, vocabulary, tuning, termCount);
  if (laidOut) termRuns.push(laidOut.ints);
  if (laidOut) termCount += laidOut.ints.length;
  const shelf: StoredShelf = {
    format: PREBUILT_FORMAT,
    version: PREBUILT_VERSION,
    core: coreVersion(),
    mode,
    builtAt: new Date().toISOString(),
    sources: sources.map((s) => ({ dir: storedPath(root, s.dir), scope: s.scope })),
    files,
    index: {
      tuning: termTuningKey(tuning),
      probe: probeTerms(),
      terms: vocabulary.terms,
      everyday: everydayWeightPairs(vocabulary.terms),
      ...(laidOut && { layout: laidOut.layout }),
    },
  };
  const file = path.resolve(root, options.out ?? path.join(".skillshelf", DEFAULT_PREBUILT_FILE));
  const ints = new Int32Array(termCount);
  let at = 0;
  for (const run of termRuns) {
    ints.set(run, at);
    at += run.length;
  }
  const bytes = encodePrebuiltFile(shelf, ints);
  writeAtomically(file, bytes);
  return {
    file,
    files: files.length,
    skills,
    bytes: bytes.length,
    diagnostics: loader.diagnostics(),
  };
}

/**
 * The stage-1 index of the list a shelf offers, laid out as its first plan would lay it out
 * (prebuilt-layout.ts), with the familiarity references the first message would compute;
 * stored at position `at` of the int32 section. Undefined when a skill of the list was not
 * recorded from a file of its own and is no builtin (nothing a start could compare it with).
 */
function layOut(
  offered: readonly Skill[],
  recorded: ReadonlyMap<Skill, { terms: SkillTerms; position: number }>,
  vocabulary: Vocabulary,
  tuning: ReturnType<typeof createMatcher>["tuning"],
  at: number,
): { layout: StoredLayout; ints: Int32Array } | undefined {
  const positions: number[] = [];
  const builtins: StoredLayout["builtins"] = [];
  const terms: SkillTerms[] = [];
  for (const skill of offered) {
    const found = recorded.get(skill);
    if (found) {
      positions.push(found.position);
      terms.push(found.terms);
    } else if (skill.scope === "builtin") {
      positions.push(-1 - builtins.length);
      builtins.push({ name: skill.name, hash: skill.hash, examples: skill.examples.length });
      terms.push(readSkillTerms(skill, vocabulary, tuning));
    } else return undefined;
  }
  const index = buildLexicalIndex(terms, vocabulary, tuning);
  // Its arrays start at an even position, as the float64s in them need.
  const start = at % 2 === 0 ? at : at + 1;
  const arrays = encodeLayout(index, start);
  const ints = new Int32Array(start - at + arrays.length);
  ints.set(arrays, start - at);
  return {
    layout: {
      skills: positions,
      builtins,
      at: start,
      postings: index.postingDocs.length,
      exampleCount: index.exampleCount,
      exampleIds: index.exampleList.length,
      references: {
        everydayWords: tuning.everydayWords,
        examples: referenceKnownShare(index, tuning.everydayWords),
        skills: referenceFromSkills(index, tuning.everydayWords),
      },
    },
    ints,
  };
}

export interface CheckShelfResult {
  file: string;
  /** The prebuilt shelf is there, usable, current, and every skill in it matches its file. */
  ok: boolean;
  /** What is wrong: `prebuilt-unusable`, `prebuilt-stale`, `prebuilt-mismatch` (empty when ok). */
  problems: Diagnostic[];
}

/**
 * Checks a prebuilt shelf against the skill folders the way an app would start from it, then
 * asks for every skill by name, so each one is compared with its own file (what `get` does
 * before a skill is used): for a deploy step that should fail on a prebuilt shelf that is
 * missing, foreign, out of date or edited.
 */
export async function checkPrebuiltShelf(options: BuildShelfOptions = {}): Promise<CheckShelfResult> {
  const root = path.resolve(options.root ?? process.cwd());
  const mode = options.mode ?? "lenient";
  const sources = resolveSources({ ...options, root });
  const file = path.resolve(root, options.out ?? path.join(".skillshelf", DEFAULT_PREBUILT_FILE));
  const opened = openPrebuiltShelf({ file, root, sources, mode, explicit: true });
  const loader = new SkillLoader({ sources, mode, prebuilt: opened.source, notes: opened.diagnostics });
  await loader.load();
  for (const skill of loader.skills()) loader.get(skill.name);
  const problems = loader.diagnostics().filter((d) => d.code.startsWith("prebuilt-"));
  return { file, ok: problems.length === 0, problems };
}

/** A starting app never reads half a file: the new one is written beside it, then renamed over it. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = fs.openSync(temp, "wx");
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Fields of a loaded skill the app knows without the file (or reads from it: the body). */
const NOT_STORED = new Set(["scope", "file", "dir", "locked", "body"]);

/** The skill's stored fields, copied key by key: reading `body` would read a deferred body from its file. */
/** What a start needs to remake a lost file's stub (its other fields are the defaults). */
function lostStub(skill: Skill): StoredLostStub & Record<string, unknown> {
  const stub: StoredLostStub & Record<string, unknown> = {
    name: skill.name,
    hash: skill.hash,
    bodyLine: skill.bodyLine,
  };
  if (skill.role === true) stub.role = true;
  return stub;
}

function storedSkill(skill: Skill): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const key of Object.keys(skill)) {
    if (!NOT_STORED.has(key)) stored[key] = (skill as unknown as Record<string, unknown>)[key];
  }
  return stored;
}
