/**
 * SkillLoader: the loading state behind a shelf. Scans the source folders, parses every
 * skill file once, resolves overrides, and on refresh() re-reads only what changed.
 *
 * refresh() with nothing changed is a walk over the scan tree plus one sync stat per skill
 * file and per non-skill folder — no reads, no parsing, no allocation of a new skill list —
 * so a host can call it before every turn. skills() keeps returning the same array until
 * a refresh actually changes the resolved set (consumers cache by identity).
 */
import crypto from "node:crypto";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { diagnostic } from "../diagnostic.js";
import { SCHEMA_FILE, skillParameters } from "../parameters/skill-parameters.js";
import { ownString } from "../parse/own-string.js";
import { parseSkill, type StartParse } from "../parse/parse-skill.js";
import type { BuiltinSkill, Diagnostic, ParseMode, ParseResult, Skill } from "../types.js";
import { checkStepFiles } from "../workflow/step-files.js";
import { loadBuiltins } from "./builtin.js";
import type { ExpectedStates } from "./expected-states.js";
import { deferBody, isBodyDeferred, setBody as setPlainBody } from "./lazy-body.js";
import { isLostStub, plainStub, restoredStub, stubOf } from "./lost-stub.js";
import type { StoredLostStub } from "./prebuilt-format.js";
import { readBytes, readSkillFiles } from "./read.js";
import { type Overridden, type ResolveEntry, ranksBefore, resolveWinners, type Winners } from "./resolve.js";
import {
  createLimiter,
  NO_DIAGNOSTICS,
  newNode,
  rescanNode,
  type ScanContext,
  type ScanNode,
  scanNode,
  walk,
} from "./scan.js";
import { checkSignature, isUnchanged, type Signature, sameSignature, signatureOf } from "./signature.js";
import { SignatureTable } from "./signature-table.js";
import type { SourceRoot } from "./sources.js";

/** Directory listings in flight at once. */
const LIST_CONCURRENCY = 32;

export interface LoaderOptions {
  sources: readonly SourceRoot[];
  builtins?: readonly BuiltinSkill[];
  mode?: ParseMode;
  /** The file that wins for a name, whatever scope and folder order say (never over a role or a locked builtin). */
  prefer?: ReadonlyMap<string, string>;
  /** What a prebuilt shelf recorded: the first load takes each unchanged file from it instead of reading it. */
  prebuilt?: PrebuiltSource;
  /** Findings about how the shelf is loaded (a prebuilt shelf that could not be used), reported with the rest. */
  notes?: readonly Diagnostic[];
}

/** A file as a prebuilt shelf recorded it. */
export interface PrebuiltEntry {
  /** The recorded parse; for a file that lost, only its diagnostics (see `lost`). */
  result: ParseResult;
  /**
   * The file lost to another of the same name when the shelf was built: only the fields of its
   * stub that are not the defaults were kept (the loader makes the stub itself).
   */
  lost: StoredLostStub | undefined;
  /** The file's mtime is the recorded one too (else only its size is, and its bytes must be compared). */
  sameTime: boolean;
  /**
   * The skill's folder had a `schema.json` at the build. When it had none, none is the
   * baseline of the folder's change check (no `stat` at start): one there now is a change the
   * next refresh reads the skill again for. The schema itself is always read from its file.
   */
  schemaFile: boolean;
  /** The index's stored terms for it, when there are any: [start, length] in the file's int32 section. */
  terms?: readonly [number, number];
  /** The phrase forms stored with the terms (see StoredFile.phrases). */
  phrases?: readonly string[];
}

export interface PrebuiltSource {
  /** The prebuilt shelf's file, for diagnostics. */
  file: string;
  /** What was recorded for `file`, when its size is still the one recorded. */
  entry(file: string, sig: Signature | undefined): PrebuiltEntry | undefined;
  /** Whether `file` was recorded at all. */
  has(file: string): boolean;
  /** How many skill files were recorded (to count those that are gone). */
  recorded: number;
  /** Called with each skill made from an entry (the prebuilt index's terms go with it). */
  adopted?(skill: Skill, entry: PrebuiltEntry): void;
}

/** What one refresh changed; names refer to resolved skills. */
export interface LoadChange {
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
  diagnostics: Diagnostic[];
}

interface RootState {
  source: SourceRoot;
  node: ScanNode;
  ctx: ScanContext;
}

/** One skill file and what it currently contributes. */
interface FileRecord {
  file: string;
  source: SourceRoot;
  depth: number;
  /**
   * Signature taken before the last read (a write after it shows up as a change): the
   * file's slot in the loader's {@link SignatureTable}, kept across the file's records.
   */
  sig: number;
  /**
   * The skill's `schema.json` as it was when the skill was recorded (undefined: none). The
   * parameters are read from it lazily, per skill object, so an edit to it alone must make a
   * new object as an edit to SKILL.md does.
   */
  schemaSig: Signature | undefined;
  /** The refresh that last found this file unchanged (saves a second stat when folders changed). */
  checked?: number;
  /** The skill this file provides now: the last parse, or the last good one if that failed. */
  skill?: Skill;
  diagnostics: Diagnostic[];
}

interface Located {
  file: string;
  source: SourceRoot;
  depth: number;
  /** The file's signature, when the scan that found it just took one. */
  sig?: Signature;
}

export class SkillLoader {
  readonly sources: readonly SourceRoot[];
  readonly mode: ParseMode;
  private readonly prefer: ReadonlyMap<string, string> | undefined;
  private readonly roots: RootState[];
  private readonly files = new Map<string, FileRecord>();
  /** The records' signatures (see FileRecord.sig). */
  private readonly sigs = new SignatureTable();
  private readonly builtinSkills: Skill[];
  private readonly builtinDiagnostics: Diagnostic[];
  /** Only until the first load has taken what it needs from it. */
  private prebuilt: PrebuiltSource | undefined;
  private readonly prebuiltFile: string | undefined;
  /** Findings about the prebuilt shelf (stale files, sources that disagreed with it). */
  private readonly prebuiltNotes: Diagnostic[] = [];

  private current: readonly Skill[] = [];
  private byName = new Map<string, Skill>();
  private currentDiagnostics: readonly Diagnostic[] = [];
  private currentOverridden: readonly Overridden[] = [];
  /**
   * After a cold load: makes the overridden files and the diagnostics, which are made only
   * when first asked (see {@link settle}) — a start serves the winners and may never ask.
   */
  private unsettled: (() => void) | undefined;
  /** Names more than one file provides: a write to one of them needs a full resolution. */
  private contested: ReadonlySet<string> = new Set();
  private loaded = false;
  /**
   * During the first load: per name, the file recorded so far that resolution would put
   * first. A file that ranks after it can never win, so it is kept as a stub from the start.
   */
  private leaders: Map<string, FileRecord> | undefined;
  /** Refreshes run one after another; a call made during a refresh waits and re-checks. */
  private queue: Promise<unknown> = Promise.resolve();
  private generation = 0;

  constructor(options: LoaderOptions) {
    this.sources = options.sources;
    this.mode = options.mode ?? "lenient";
    this.prefer = options.prefer;
    this.prebuilt = options.prebuilt;
    this.prebuiltFile = options.prebuilt?.file;
    append(this.prebuiltNotes, options.notes ?? []);
    const limit = createLimiter(LIST_CONCURRENCY);
    this.roots = options.sources.map((source) => ({
      source,
      node: newNode(source.dir, 0),
      ctx: { rootReal: source.dir, limit },
    }));
    const builtins = loadBuiltins(options.builtins ?? [], this.mode);
    this.builtinSkills = builtins.skills;
    this.builtinDiagnostics = builtins.diagnostics;
  }

  skills(): readonly Skill[] {
    return this.current;
  }

  /**
   * A skill taken from a prebuilt shelf is checked against its file the first time it is
   * asked for by name — which is how sessions activate skills and apply their tools — and
   * the file wins when they differ (see {@link verifyPrebuilt}).
   */
  get(name: string): Skill | undefined {
    const skill = this.byName.get(name);
    return skill && fromPrebuilt.has(skill) ? this.verifyPrebuilt(skill) : skill;
  }

  diagnostics(): readonly Diagnostic[] {
    this.settle();
    return this.currentDiagnostics;
  }

  /** Files that lost to another file of the same name, and to which. */
  overridden(): readonly Overridden[] {
    this.settle();
    return this.currentOverridden;
  }

  /**
   * Bumped whenever a refresh lists a folder again, so the folders to watch may differ even
   * when no skill changed (a new, still empty skill folder must be watched for its SKILL.md).
   */
  layout = 0;

  /** Every folder the loader looks at (roots, categories, skill folders): what a watcher watches. */
  watchedFolders(): string[] {
    const folders: string[] = [];
    for (const root of this.roots) {
      for (const node of walk(root.node))
        if (node.depth === 0 || node.sig || node.skillFile) folders.push(node.path);
    }
    return folders;
  }

  /**
   * Whether watching {@link watchedFolders} sees every change that matters: not when a skill
   * file is a symbolic link (its target's edits happen in a folder that may not be watched).
   */
  watchable(): boolean {
    for (const root of this.roots) for (const node of walk(root.node)) if (node.skillLinked) return false;
    return true;
  }

  /**
   * What the first step of {@link update} compares, into `into` (reset first), for a check
   * made off the request path (background-walk.ts). Queued like a refresh: never taken from
   * one half done.
   */
  expectedStates(into: ExpectedStates): Promise<ExpectedStates> {
    const run = this.queue.then(() => {
      into.reset();
      for (const root of this.roots) {
        const stack: ScanNode[] = [root.node];
        while (stack.length > 0) {
          const node = stack.pop()!;
          if (node.skillFile === undefined) {
            into.add(node.path, node.sig);
            for (const child of node.children.values()) stack.push(child);
            continue;
          }
          const record = this.files.get(node.skillFile);
          if (!record) into.addStale(node.skillFile);
          else {
            into.addSlot(node.skillFile, this.sigs, record.sig);
            into.add(schemaFileOf(record.file), record.schemaSig);
          }
        }
      }
      return into;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The first load. Calling it again is the same as refresh(). */
  load(): Promise<LoadChange> {
    return this.refresh();
  }

  refresh(): Promise<LoadChange> {
    const run = this.queue.then(() => (this.loaded ? this.update() : this.coldLoad()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Re-reads one skill file the loader already holds (after a managed write to it), so the
   * cost is one file's, not the shelf's: no stat walk, and when the file still provides the
   * same name and no other file competes for that name, no re-resolution either. Anything
   * else (a file it does not know, a new name, a file that no longer loads, a contested name)
   * falls back to a full refresh, which is always right.
   */
  refreshFile(file: string): Promise<LoadChange> {
    const run = this.queue.then(() => (this.loaded ? this.updateFile(file) : this.coldLoad()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ── cold load ────────────────────────────────────────────────────────────────

  private async coldLoad(): Promise<LoadChange> {
    await Promise.all(
      this.roots.map(async (root) => {
        root.ctx.rootReal = await realDir(root.source.dir);
        root.node = await scanNode(root.source.dir, 0, root.ctx);
      }),
    );
    const located = this.locate();
    const toRead = this.prebuilt ? this.takePrebuilt(located, this.prebuilt) : located;
    this.prebuilt = undefined;
    this.leaders = this.prefer ? undefined : new Map();
    try {
      await this.readAll(toRead);
    } finally {
      this.leaders = undefined;
    }
    this.loaded = true;
    return this.publish(new Set(located.map((l) => l.file)), [], true);
  }

  /**
   * Records every located file the prebuilt shelf holds unchanged (same size and mtime) and
   * returns the rest, to be read. Only files the scan found are taken: a recorded file that
   * is gone is gone, and nothing outside the source folders can come in through the prebuilt.
   */
  private takePrebuilt(located: readonly Located[], prebuilt: PrebuiltSource): Located[] {
    const toRead: Located[] = [];
    let changed = 0;
    // Recorded files the scan found, to count those that are gone: an entry is one, and only a
    // file without one needs a second lookup.
    let known = 0;
    for (const loc of located) {
      const sig = loc.sig ?? signatureOf(loc.file);
      const entry = prebuilt.entry(loc.file, sig);
      if (entry || prebuilt.has(loc.file)) known++;
      const hash = entry?.lost ? entry.lost.hash : entry?.result.skill?.hash;
      if (!entry || (!entry.sameTime && !sameBytes(loc.file, sig, hash))) {
        toRead.push(loc);
        changed++;
        continue;
      }
      // A role is read from its file: roles() hands its tools and body to a sub-agent without
      // asking for it by name, so `get`'s check would come too late (and roles are few). So is
      // a lost one: what it is decides the loss's note, and a stored `role` is only a claim.
      if (entry.lost?.role === true || (!entry.lost && entry.result.skill?.role === true)) {
        toRead.push(loc);
        continue;
      }
      if (entry.lost) {
        this.recordLost(loc, sig, entry.lost, entry.result.diagnostics, entry.schemaFile);
        continue;
      }
      this.record(loc, sig, entry.result, false, entry.schemaFile ? undefined : NO_SCHEMA_FILE);
      const skill = this.files.get(loc.file)?.skill;
      if (!skill) continue;
      fromPrebuilt.add(skill);
      if (entry.result.skill && !("body" in entry.result.skill)) this.readBodyLater(skill);
      prebuilt.adopted?.(skill, entry);
    }
    const gone = prebuilt.recorded - known;
    if (changed > 0 || gone > 0) {
      this.prebuiltNotes.push(
        diagnostic({
          severity: "info",
          code: "prebuilt-stale",
          message: `${prebuilt.file} is out of date: ${changed} skill file(s) are new or changed since it was built (read from their sources), ${gone} recorded file(s) are gone. Run \`skillshelf build\` again.`,
          file: prebuilt.file,
        }),
      );
    }
    return toRead;
  }

  /**
   * A file the prebuilt shelf recorded as lost, unchanged since: its record, with the stub made
   * from the three stored fields (read again from the file should it win). The same record
   * {@link record} makes of a prebuilt entry, without a parse result or a skill of every field
   * first: on the mirror 7,068 of 15,724 files.
   */
  private recordLost(
    loc: Located,
    sig: Signature | undefined,
    stored: StoredLostStub,
    diagnostics: Diagnostic[],
    schemaFile: boolean,
  ): void {
    this.files.set(loc.file, {
      file: loc.file,
      source: loc.source,
      depth: loc.depth,
      sig: this.sigs.add(sig),
      schemaSig: schemaFile ? signatureOf(schemaFileOf(loc.file)) : undefined,
      checked: undefined,
      skill: restoredStub(stored, loc.source.scope, loc.file, path.dirname(loc.file)),
      diagnostics: diagnostics.length === 0 ? (NO_DIAGNOSTICS as Diagnostic[]) : diagnostics,
    });
  }

  /**
   * A prebuilt shelf does not carry bodies (they were most of its size, and of a shelf's
   * memory): the first read of `body` checks the skill against its file, as `get` does,
   * and keeps the file's body. A skill whose file no longer matches has none ("").
   */
  private readBodyLater(skill: Skill): void {
    prebuiltBodyReaders.set(skill, this.readPrebuiltBody);
    Object.defineProperty(skill, "body", PREBUILT_BODY);
  }

  /** The first read of a prebuilt skill's body: the check against its file, which keeps the file's body. */
  private readonly readPrebuiltBody = (skill: Skill): string => {
    this.verifyPrebuilt(skill);
    if (prebuiltBodyReaders.has(skill)) setBody(skill, ""); // no longer the loader's: nothing to check it against
    return skill.body;
  };

  /**
   * Reads a prebuilt skill's file and parses it: the same skill (every field, security
   * fields included) is marked checked and served; a different one — the file changed
   * without its size or mtime moving, or the prebuilt shelf was edited — replaces it, with
   * an error diagnostic; a file that cannot be read or no longer gives that name serves
   * nothing until the next refresh reads it. A prebuilt shelf is never trusted over the
   * source it claims to describe.
   */
  private verifyPrebuilt(skill: Skill): Skill | undefined {
    const record = this.files.get(skill.file);
    if (!record || record.skill !== skill) return undefined;
    // The folder's schema.json as it is now: the baseline for the parameters, which are read
    // (and cached on the skill) only after this check. A start took the prebuilt's word that
    // there was none, so one there now, used, then removed would look unchanged.
    record.schemaSig = signatureOf(schemaFileOf(skill.file));
    const { sig, parsed } = this.parseNow(skill.file);
    const fresh = parsed?.skill ? this.skillOf(parsed.skill, record.source, skill.file) : undefined;
    const lazy = prebuiltBodyReaders.has(skill);
    if (fresh && sameData(fresh, skill, lazy ? "body" : undefined)) {
      fromPrebuilt.delete(skill);
      if (lazy) setBody(skill, fresh.body);
      return skill;
    }
    if (lazy) setBody(skill, "");
    this.settle();
    const note = diagnostic({
      severity: "error",
      code: "prebuilt-mismatch",
      message: `${skill.file} does not match what ${this.prebuiltFile ?? "the prebuilt shelf"} recorded for '${skill.name}'; the file is used instead. Run \`skillshelf build\` again.`,
      file: skill.file,
    });
    this.prebuiltNotes.push(note);
    this.currentDiagnostics = Object.freeze([...this.currentDiagnostics, note]);
    if (!fresh || fresh.name !== skill.name || !parsed) {
      // Served no more (not even by the next call): the next refresh reads the file and
      // resolves again, which may let another file of that name win. It stays marked as
      // prebuilt, so that read replaces it even though the hash it claims is the file's.
      this.sigs.set(record.sig, undefined);
      this.byName.delete(skill.name);
      this.current = Object.freeze(this.current.filter((s) => s !== skill));
      return undefined;
    }
    record.skill = fresh;
    record.diagnostics = parsed.diagnostics;
    this.sigs.set(record.sig, sig);
    const at = this.current.indexOf(skill);
    if (at >= 0) {
      const next = [...this.current];
      next[at] = fresh;
      this.current = Object.freeze(next);
    }
    this.byName.set(fresh.name, fresh);
    return fresh;
  }

  // ── refresh ──────────────────────────────────────────────────────────────────

  private async update(): Promise<LoadChange> {
    // 1. The cheap check: has any folder listing or skill file moved?
    const staleFolders: Array<{ node: ScanNode; root: RootState }> = [];
    const changedFiles = new Set<string>();
    const generation = ++this.generation;
    for (const root of this.roots) {
      const stack: ScanNode[] = [root.node];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (node.skillFile !== undefined) {
          const record = this.files.get(node.skillFile);
          const check = record
            ? this.sigs.check(node.skillFile, record.sig)
            : checkSignature(node.skillFile, undefined);
          if (check === "missing") staleFolders.push({ node, root });
          else if (record && check === "same" && sameSchema(record)) record.checked = generation;
          else changedFiles.add(node.skillFile);
          continue;
        }
        if (!isUnchanged(node.path, node.sig)) staleFolders.push({ node, root });
        for (const child of node.children.values()) stack.push(child);
      }
    }
    if (staleFolders.length === 0 && changedFiles.size === 0) {
      return { changed: false, added: [], updated: [], removed: [], diagnostics: [] };
    }
    this.settle();

    // 2. Re-list the folders that changed, parents first, keeping the children they still have.
    staleFolders.sort((a, b) => a.node.depth - b.node.depth);
    if (staleFolders.length > 0) this.layout++;
    for (const { node, root } of staleFolders) {
      if (node.detached) continue;
      if (node.depth === 0) root.ctx.rootReal = await realDir(root.source.dir);
      await rescanNode(node, root.ctx);
    }

    // 3. Read new and changed files, forget vanished ones.
    const located = this.locate();
    const present = new Set<string>();
    const toRead: Located[] = [];
    for (const loc of located) {
      present.add(loc.file);
      const record = this.files.get(loc.file);
      if (
        !record ||
        changedFiles.has(loc.file) ||
        record.source !== loc.source ||
        record.depth !== loc.depth
      ) {
        toRead.push(loc);
      } else if (
        record.checked !== generation &&
        !(this.sigs.unchanged(loc.file, record.sig) && sameSchema(record))
      ) {
        // A folder that was replaced under the same path: its file was not checked in step 1.
        toRead.push(loc);
      }
    }
    const removedFiles: string[] = [];
    for (const file of this.files.keys()) {
      if (!present.has(file)) {
        this.sigs.release(this.files.get(file)!.sig);
        this.files.delete(file);
        removedFiles.push(file);
      }
    }
    await this.readAll(toRead);
    return this.publish(new Set(toRead.map((l) => l.file)), removedFiles);
  }

  private async updateFile(file: string): Promise<LoadChange> {
    this.settle();
    const previous = this.files.get(file);
    const old = previous?.skill;
    if (!previous || !old || this.byName.get(old.name) !== old || this.contested.has(old.name)) {
      return this.update();
    }
    const loc: Located = { file, source: previous.source, depth: previous.depth };
    await this.readAll([loc]);
    const record = this.files.get(file)!;
    const skill = record.skill;
    if (
      !record.skill ||
      record.diagnostics.some((d) => d.code === "kept-last-good") ||
      skill?.name !== old.name
    ) {
      return this.publish(new Set([file]), []);
    }
    if (skill !== old) {
      const at = this.current.indexOf(old);
      const next = [...this.current];
      next[at] = skill;
      this.current = Object.freeze(next);
      this.byName.set(skill.name, skill);
    }
    // This file's diagnostics, replaced where they sit (the list is sorted by file, then line).
    const kept = this.currentDiagnostics.filter((d) => d.file !== file);
    let insertAt = kept.findIndex((d) => d.file > file);
    if (insertAt < 0) insertAt = kept.length;
    const own = [...record.diagnostics].sort(compareDiagnostics);
    this.currentDiagnostics = Object.freeze(kept.slice(0, insertAt).concat(own, kept.slice(insertAt)));
    return {
      changed: true,
      added: [],
      updated: skill === old ? [] : [skill.name],
      removed: [],
      diagnostics: own,
    };
  }

  // ── shared steps ─────────────────────────────────────────────────────────────

  private resolve() {
    const entries: ResolveEntry[] = [];
    for (const record of this.files.values()) {
      if (record.skill) entries.push({ skill: record.skill, rank: record.source.rank, depth: record.depth });
    }
    const builtinRank = this.sources.length;
    for (const skill of this.builtinSkills) entries.push({ skill, rank: builtinRank, depth: 0 });
    return resolveWinners(entries, this.prefer ? { prefer: this.prefer } : {});
  }

  /**
   * Keeps only what resolution needs of a file that lost (see lost-stub.ts). The parser's
   * strings are slices of the file's whole text, and one kept slice would keep all of it
   * alive: the stub holds no string of the text (names are copied when recorded, so the
   * resolution's notes on the file hold none either) and the file's own diagnostics are
   * copied. The resolution's entry takes the stub too, so that its notes, made when first
   * asked, do not keep the whole skill alive until then (a stub reads the same to them).
   */
  private setAsideLosers(resolution: Winners): void {
    for (const lost of resolution.losers) {
      const record = this.files.get(lost.skill.file);
      const skill = record?.skill;
      if (!record || !skill || skill !== lost.skill || isLostStub(skill)) continue;
      record.skill = stubOf(skill);
      lost.skill = record.skill;
      if (record.diagnostics.length > 0) record.diagnostics = detachedCopy(record.diagnostics);
    }
  }

  /** Every skill file in the current scan trees, in source order. */
  private locate(): Located[] {
    const located: Located[] = [];
    for (const root of this.roots) {
      for (const node of walk(root.node)) {
        if (node.skillFile === undefined) continue;
        located.push({ file: node.skillFile, source: root.source, depth: node.depth, sig: node.skillSig });
        // Good for the read right after this scan only.
        node.skillSig = undefined;
      }
    }
    return located;
  }

  private async readAll(located: readonly Located[]): Promise<void> {
    const describe = (loc: Located) => ({
      file: loc.file,
      sig: loc.sig,
      options: { path: loc.file, mode: this.mode, folderName: path.basename(path.dirname(loc.file)) },
      // A file that loses already is kept as a stub, read again should it ever win: its hash
      // would be half the load's hashing (the mirror's losers are 67 of its 134 MB) for
      // nothing. The same test as record()'s, on the same state (nothing runs in between).
      keepHash:
        this.leaders === undefined || this.files.has(loc.file)
          ? undefined
          : (name: string, role: boolean) => !this.losesAlready(loc, { name, role }),
    });
    await readSkillFiles(located, describe, (i, sig, result, start) =>
      this.record(located[i]!, sig, result, true, undefined, start),
    );
  }

  /**
   * Stores what a file now provides; a file that stopped loading keeps its last good skill.
   * `fromFile`: the result was just parsed from the file (a prebuilt shelf's entry already
   * holds the folder's diagnostics from its build).
   */
  private record(
    loc: Located,
    sig: Signature | undefined,
    result: ParseResult,
    fromFile = true,
    knownSchema?: { sig: Signature | undefined },
    start?: StartParse,
  ): void {
    const previous = this.files.get(loc.file);
    const schemaSig = knownSchema ? knownSchema.sig : signatureOf(schemaFileOf(loc.file));
    // Every field set here, so records keep one shape with all fields inside the object.
    if (previous) this.sigs.set(previous.sig, sig);
    const record: FileRecord = {
      file: loc.file,
      source: loc.source,
      depth: loc.depth,
      sig: previous ? previous.sig : this.sigs.add(sig),
      schemaSig,
      checked: undefined,
      skill: undefined,
      diagnostics: NO_DIAGNOSTICS as Diagnostic[],
    };

    if (result.skill && previous === undefined && this.losesAlready(loc, result.skill)) {
      // Only what resolution needs, as for any loser (see setAsideLosers); publish reads the
      // file again should it win after all.
      const skill = this.skillOf(result.skill, loc.source, loc.file);
      const diagnostics = withFolderDiagnostics(result.diagnostics, skill, schemaSig !== undefined);
      record.skill = stubOf(skill);
      record.diagnostics = diagnostics.length > 0 ? detachedCopy(diagnostics) : diagnostics;
    } else if (result.skill) {
      const old = previous?.skill;
      // Same bytes as the active version (a `touch`, or a save without edits): keep the
      // object, so the resolved list — and everything cached on it — stays the same. Not a
      // prebuilt one: the file just read is the truth, whatever the prebuilt shelf said.
      const same =
        old &&
        old.hash === result.skill.hash &&
        old.scope === loc.source.scope &&
        sameSignature(previous?.schemaSig, schemaSig) &&
        !isLostStub(old) &&
        !fromPrebuilt.has(old);
      record.skill = same
        ? old
        : fromFile
          ? this.withDeferredBody(result.skill, loc.source, loc.file, start)
          : this.servedAsStored(result.skill, loc.source, loc.file);
      record.diagnostics = fromFile
        ? withFolderDiagnostics(result.diagnostics, record.skill, schemaSig !== undefined)
        : result.diagnostics;
    } else if (
      previous?.skill &&
      previous.source.scope === loc.source.scope &&
      !isLostStub(previous.skill) &&
      !fromPrebuilt.has(previous.skill) &&
      !isBodyDeferred(previous.skill)
    ) {
      record.skill = previous.skill;
      record.diagnostics = [
        ...result.diagnostics,
        diagnostic({
          severity: "warning",
          code: "kept-last-good",
          message: `${loc.file} no longer loads; the last version that did ('${previous.skill.name}') stays active until it is fixed.`,
          file: loc.file,
        }),
      ];
    } else {
      record.diagnostics = result.diagnostics;
    }
    // Most files have none: one shared empty list rather than an array each (15,700 on the mirror).
    if (record.diagnostics.length === 0) record.diagnostics = NO_DIAGNOSTICS as Diagnostic[];
    this.files.set(loc.file, record);
    if (this.leaders && record.skill && !isLostStub(record.skill)) {
      const leader = this.leaders.get(record.skill.name);
      if (!leader?.skill || ranksBefore(entryOf(record, record.skill), entryOf(leader, leader.skill)))
        this.leaders.set(record.skill.name, record);
    }
  }

  /**
   * Whether a file just read loses to one already recorded whatever else is read: a file of
   * its name that resolution puts first. A role is never judged this early (an ordinary
   * skill never beats one), nor is anything when `prefer` may pin a file.
   */
  private losesAlready(loc: Located, parsed: { name: string; role?: boolean }): boolean {
    if (this.leaders === undefined || parsed.role === true) return false;
    const leader = this.leaders.get(parsed.name);
    if (!leader?.skill) return false;
    // Only what the order reads: scope, rank, depth, file.
    const candidate: ResolveEntry = {
      skill: { scope: loc.source.scope, file: loc.file } as Skill,
      rank: loc.source.rank,
      depth: loc.depth,
    };
    return ranksBefore(entryOf(leader, leader.skill), candidate);
  }

  /**
   * {@link skillOf} with the body left in the file (see lazy-body.ts), built straight from
   * the parse: a skill whose strings share nothing with the file's text — the parser's
   * strings are slices of it, and one kept slice would keep all of it alive — holding the
   * start of the body the index reads. Same fields in the same order as `skillOf`'s.
   */
  private withDeferredBody(
    parsed: NonNullable<ParseResult["skill"]>,
    source: SourceRoot,
    file: string,
    start?: StartParse,
  ): Skill {
    const truncated = start?.truncated === true;
    // The loader's own strings (paths, scope), the hasher's hash and a copied name: shared.
    const own: Record<string, unknown> = {
      name: ownString(parsed.name),
      scope: source.scope,
      file,
      dir: path.dirname(file),
      locked: false,
    };
    // Built key by key with defineProperty, the getter in `body`'s place: V8 turns an object
    // into a slow dictionary (≈ 900 bytes more) when a data property becomes a getter, or
    // when more than a dozen properties are added by `out[key] =`.
    const skill = {} as Skill;
    const define = (key: string, value: unknown) =>
      Object.defineProperty(skill, key, { value, writable: true, enumerable: true, configurable: true });
    const fields = parsed as unknown as Record<string, unknown>;
    for (const key of Object.keys(parsed)) {
      if (key === "body") {
        deferBody(
          skill,
          parsed.body,
          this.readDeferredBody,
          truncated ? start.mentionsArguments : undefined,
          truncated ? start.head : undefined,
        );
        continue;
      }
      const value = fields[key];
      const copied = key in own ? own[key] : key === "hash" ? value : detachedData(value);
      if (copied === undefined && value !== undefined) {
        // Not plain data: kept whole, with the whole body.
        return this.skillOf(truncated ? this.wholeParse(parsed, file) : parsed, source, file);
      }
      define(key, copied);
    }
    for (const key of Object.keys(own)) if (!(key in fields)) define(key, own[key]);
    return skill;
  }

  /**
   * `parsed` (whose body is only its start) with its whole body, read again from the file; a
   * file changed since gives no body (""), and its change shows on the next refresh.
   */
  private wholeParse(
    parsed: NonNullable<ParseResult["skill"]>,
    file: string,
  ): NonNullable<ParseResult["skill"]> {
    const again = this.parseNow(file).parsed?.skill;
    return { ...parsed, body: again?.hash === parsed.hash ? again.body : "" };
  }

  /**
   * A deferred body, read and parsed from the skill's file: served only when the file still
   * hashes to what was loaded. A file changed since gives none (""), and is read again by the
   * next refresh, which serves its new version as a new skill.
   */
  private readonly readDeferredBody = (skill: Skill): string => {
    const { parsed } = this.parseNow(skill.file);
    if (parsed?.skill && parsed.skill.hash === skill.hash) return parsed.skill.body;
    const record = this.files.get(skill.file);
    if (record?.skill === skill) this.sigs.set(record.sig, undefined);
    return "";
  };

  /** The file as it is on disk now, parsed the way the scan parses it (no `parsed` when unreadable). */
  private parseNow(file: string): { sig: ReturnType<typeof signatureOf>; parsed: ParseResult | undefined } {
    const sig = signatureOf(file);
    const bytes = readBytes(file, sig);
    const parsed = bytes
      ? parseSkill(bytes, { path: file, mode: this.mode, folderName: path.basename(path.dirname(file)) })
      : undefined;
    return { sig, parsed };
  }

  /**
   * A prebuilt shelf's stored skill made the skill served, in place: the prebuilt source hands
   * each stored object over once, parsed from its file for this start, so it takes the
   * loader's fields itself instead of being copied (one object of a varied shape fewer per
   * skill of a cold start; it keeps fast properties). Same fields in the same order as
   * {@link skillOf}'s; its strings share nothing with a file's text, so the name is not copied.
   */
  private servedAsStored(stored: NonNullable<ParseResult["skill"]>, source: SourceRoot, file: string): Skill {
    const skill = stored as unknown as Skill;
    skill.scope = source.scope;
    skill.file = file;
    skill.dir = path.dirname(file);
    skill.locked = false;
    return skill;
  }

  private skillOf(parsed: NonNullable<ParseResult["skill"]>, source: SourceRoot, file: string): Skill {
    return {
      ...parsed,
      name: ownString(parsed.name),
      scope: source.scope,
      file,
      dir: path.dirname(file),
      locked: false,
    };
  }

  /**
   * Every skill file as the loader holds it now: what a prebuilt shelf records. `lost`: the
   * file lost to another of the same name, and `skill` is only the stub resolution needs.
   */
  *records(): Generator<{
    file: string;
    sig?: Signature;
    skill?: Skill;
    diagnostics: readonly Diagnostic[];
    lost: boolean;
  }> {
    for (const record of this.files.values()) {
      const lost = record.skill !== undefined && isLostStub(record.skill);
      yield {
        file: record.file,
        sig: this.sigs.get(record.sig),
        skill: lost
          ? record.skill!.hash === ""
            ? this.hashedStub(record)
            : plainStub(record.skill!)
          : record.skill,
        diagnostics: record.diagnostics,
        lost,
      };
    }
  }

  /**
   * A stub kept without its file's hash (it lost as soon as it was read), with the hash of
   * the file as it is now when that is the version the stub was made from: the same name
   * parsed from it, under the recorded signature. Else the hash stays "" (no version is
   * vouched for, so a prebuilt shelf reads the file again).
   */
  private hashedStub(record: FileRecord): Skill {
    const stub = record.skill!;
    const { sig, parsed } = this.parseNow(record.file);
    const hash =
      this.sigs.same(record.sig, sig) && parsed?.skill?.name === stub.name ? parsed.skill.hash : "";
    return plainStub(stub, hash);
  }

  /**
   * Resolves the current records into the public state. The skill list keeps its identity
   * when the resolved skills are the same objects as before.
   */
  private async publish(
    readFiles: Set<string>,
    removedFiles: readonly string[],
    lazy = false,
  ): Promise<LoadChange> {
    this.settle();
    let resolution = this.resolve();
    // A file whose body was set aside while it lost now wins: read it again (at most once
    // each; a file that no longer loads drops out, and another may win instead).
    for (;;) {
      const revived: Located[] = [];
      for (const skill of resolution.skills) {
        if (!isLostStub(skill) || skill.file === undefined) continue;
        const record = this.files.get(skill.file);
        if (record) revived.push({ file: record.file, source: record.source, depth: record.depth });
      }
      if (revived.length === 0) break;
      await this.readAll(revived);
      for (const loc of revived) readFiles.add(loc.file);
      resolution = this.resolve();
    }
    this.setAsideLosers(resolution);

    const previous = this.current;
    const previousByName = this.byName;
    const same =
      resolution.skills.length === previous.length &&
      resolution.skills.every((skill, i) => skill === previous[i]);
    if (!same) {
      this.current = Object.freeze(resolution.skills);
      this.byName = new Map(resolution.skills.map((s) => [s.name, s]));
    }

    this.contested = resolution.contested;
    const before = new Set(this.currentDiagnostics.map(diagnosticKey));
    let published: readonly Diagnostic[] | undefined;
    const settle = () => {
      const details = resolution.details();
      // Appended one by one: spreading a list into push() passes each item as an argument, and
      // a shelf with 100,000+ copies of one name has that many resolution diagnostics.
      const diagnostics: Diagnostic[] = [];
      append(diagnostics, this.builtinDiagnostics);
      for (const root of this.roots)
        for (const node of walk(root.node)) append(diagnostics, node.diagnostics);
      for (const record of this.files.values()) append(diagnostics, record.diagnostics);
      append(diagnostics, details.diagnostics);
      append(diagnostics, this.prebuiltNotes);
      diagnostics.sort(compareDiagnostics);
      published = Object.freeze(diagnostics);
      this.currentDiagnostics = published;
      this.currentOverridden = Object.freeze(details.overridden);
    };

    const added: string[] = [];
    const updated: string[] = [];
    const removed: string[] = [];
    if (!same) {
      for (const skill of this.current) {
        const old = previousByName.get(skill.name);
        if (!old) added.push(skill.name);
        else if (old !== skill) updated.push(skill.name);
      }
      for (const name of previousByName.keys()) if (!this.byName.has(name)) removed.push(name);
    }
    const change = {
      changed: !same || readFiles.size > 0 || removedFiles.length > 0,
      added,
      updated,
      removed,
      diagnostics: [] as Diagnostic[],
    };
    if (lazy && before.size === 0) {
      // Nothing was reported before, so the report is every diagnostic: both are made when
      // first asked (see settle); until then nothing is touched that they are made from.
      this.unsettled = settle;
      // The closures share this call's scope: what they never read must not stay alive with
      // them (the cold load's set of every file path, 15,724 on the mirror).
      readFiles.clear();
      before.clear();
      Object.defineProperty(change, "diagnostics", {
        configurable: true,
        enumerable: true,
        get: () => {
          this.settle();
          return [...(published ?? [])];
        },
      });
      return change;
    }
    settle();
    // What this refresh has to say: everything about the files it read, plus anything new.
    change.diagnostics = published!.filter((d) => readFiles.has(d.file) || !before.has(diagnosticKey(d)));
    return change;
  }

  /**
   * Makes what the last publish left to be made when first asked: the overridden files, the
   * resolution's notes and the sorted diagnostics. Called by whatever reads them, and by
   * whatever is about to change what they are made from (a refresh that found a change, a
   * one-file refresh, a prebuilt skill that turned out not to match its file).
   */
  private settle(): void {
    const make = this.unsettled;
    if (make === undefined) return;
    this.unsettled = undefined;
    make();
  }
}

async function realDir(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch {
    return dir; // missing root: nothing below it to check against yet
  }
}

/**
 * Adds what only the skill's folder can tell — its parameter schema and its workflow's step
 * files — for the skills that have them. Whether there is a schema.json is known from the
 * stat the change signature already takes, so a skill with neither costs nothing more.
 */
function withFolderDiagnostics(
  diagnostics: Diagnostic[],
  skill: Skill,
  hasSchemaFile: boolean,
): Diagnostic[] {
  const hasParameters = hasSchemaFile || skill.parameters !== undefined;
  const hasSteps = skill.steps !== undefined && skill.steps.length > 0;
  if (!hasParameters && !hasSteps) return diagnostics;
  const all = [...diagnostics];
  if (hasParameters) append(all, skillParameters(skill).diagnostics);
  if (hasSteps) append(all, checkStepFiles(skill));
  return all;
}

function schemaFileOf(skillFile: string): string {
  const dir = path.dirname(skillFile);
  // Skill files' paths are normalised: a separator joins them, as path.join would (cheaper, on every check).
  return dir.endsWith(path.sep) ? `${dir}${SCHEMA_FILE}` : `${dir}${path.sep}${SCHEMA_FILE}`;
}

/** Whether the skill's schema.json is as recorded (an edit, a new one, or one removed is a change). */
function sameSchema(record: FileRecord): boolean {
  return isUnchanged(schemaFileOf(record.file), record.schemaSig);
}

function entryOf(record: FileRecord, skill: Skill): ResolveEntry {
  return { skill, rank: record.source.rank, depth: record.depth };
}

/** A prebuilt shelf's word that the skill's folder had no `schema.json` (see {@link PrebuiltEntry.schemaFile}). */
const NO_SCHEMA_FILE = Object.freeze({ sig: undefined });

/** Skills taken from a prebuilt shelf and not yet checked against their file (see `get`). */
const fromPrebuilt = new WeakSet<Skill>();

/**
 * Whether the file's bytes hash to `hash`: a copy of the app (a container image, an unpacked
 * archive, a checkout) often keeps the files but not their mtimes, and hashing a file costs a
 * fraction of parsing it.
 */
function sameBytes(file: string, sig: Signature | undefined, hash: string | undefined): boolean {
  if (hash === undefined) return false;
  const bytes = readBytes(file, sig);
  return bytes !== undefined && crypto.createHash("sha256").update(bytes).digest("hex") === hash;
}

/** Prebuilt skills whose `body` is still a getter, and the loader that reads it (see `readBodyLater`). */
const prebuiltBodyReaders = new WeakMap<Skill, (skill: Skill) => string>();

/**
 * The one getter every prebuilt body shares: V8 gives objects whose same property is a
 * different getter function different hidden classes, and soon makes them slow dictionaries
 * (every later read of a skill's fields a hash lookup).
 */
const PREBUILT_BODY: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: Skill): string {
    // `this` is the skill, or an object that inherits from it.
    let skill: Skill | null = this;
    while (skill !== null && !prebuiltBodyReaders.has(skill))
      skill = Object.getPrototypeOf(skill) as Skill | null;
    if (skill === null) return "";
    return prebuiltBodyReaders.get(skill)!(skill);
  },
};

function setBody(skill: Skill, body: string): void {
  prebuiltBodyReaders.delete(skill);
  setPlainBody(skill, body);
}

/**
 * Deep equality of JSON-like data, where a key holding undefined is the same as no key;
 * `skip` is a top-level key left out.
 */
function sameData(a: unknown, b: unknown, skip?: string): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (key !== skip && !sameData(left[key], right[key])) return false;
  return true;
}

/**
 * A deep copy whose strings share nothing with the original's (JSON data only: skills and
 * diagnostics are; keys whose value is undefined are left out, which reads the same).
 */
function detachedCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * An exact deep copy of plain data (objects, arrays, strings, numbers, booleans, null) whose
 * strings share nothing with the original's; undefined when it holds anything else. Faster
 * than a JSON round trip, and keeps what JSON would change (an infinite number, a key whose
 * value is undefined).
 */
function detachedData<T>(value: T): T | undefined {
  if (typeof value === "string") return ownString(value) as T;
  if (typeof value !== "object" || value === null) return typeof value === "function" ? undefined : value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = detachedData(value[i] as unknown);
      if (item === undefined && value[i] !== undefined) return undefined;
      out[i] = item;
    }
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined; // a Date, a Map, a class
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const copied = detachedData(item);
    if (copied === undefined && item !== undefined) return undefined;
    out[key] = copied;
  }
  return out as T;
}

function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

function diagnosticKey(d: Diagnostic): string {
  return `${d.file}\0${d.line}\0${d.code}\0${d.message}`;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;
}
