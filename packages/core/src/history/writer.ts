/**
 * Managed writes: the only way skillshelf changes a skill file. Each write validates the
 * new content, takes the file's lock, compares the file's sha256 with what the caller
 * read (a stale writer gets CONFLICT, never a lost update), makes sure the version being
 * replaced is kept in history, bumps the version, replaces the file atomically, records
 * the new version, and appends the decision to the ledger.
 *
 * Order matters for crashes: the old version is kept before the file changes, and the new
 * one is recorded after, so a process killed at any point leaves the complete old or new
 * file and every version that was ever current still on record (the newest may be
 * recorded by the next write or refresh, as an `external-edit`).
 *
 * Hand edits take no lock, so one can land while a write is under way. Right before the
 * rename the file is checked again (a change since the first check fails the write with
 * CONFLICT) and hard-linked aside; after the rename the linked copy is read, and an edit
 * that landed in between is kept in history, right before the new version. An editor that
 * opened the file before the rename keeps writing into the replaced copy, so the aside is
 * kept until the write's bookkeeping is done and read once more at the very end: an edit
 * that arrived meanwhile is kept in history too (after the new version, which is then kept
 * again so the newest entry is still the file's content). A copy brought up to date from a
 * shared store is checked again right before its rename as well (CONFLICT on a change).
 *
 * What remains uncovered: an edit that replaces the file by rename between the link and the
 * rename (two system calls; node has no atomic exchange) is overwritten unrecorded; and a
 * file descriptor opened before the rename and written to after the write has returned
 * writes into a file no longer reachable by any name. No rename-based writer can see that
 * write; the editor's next save by path lands in the current file (and a refresh records it).
 * Bringing a copy up to date keeps nothing aside: there an edit in the last gap, or through
 * a file held open, is overwritten unrecorded.
 *
 * Recovery needs no loadable file: history, read and diff work from the history folder
 * alone, and a write or rollback can replace a SKILL.md that no longer loads (found through
 * `locate`). A write is refused for anything the loader would refuse (size, parse errors).
 */
import { link, readFile, realpath, rm } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { MAX_SKILL_FILE_BYTES } from "../parse/limits.js";
import { parseSkill } from "../parse/parse-skill.js";
import type { LedgerStore, SkillWriteScope, StateStore, VersionStore } from "../store/state-store.js";
import type { EventSink, ParseMode, ParseOptions, ParseResult, SkillSource } from "../types.js";
import { type AtomicFs, atomicWrite, removeStaleTempFiles, tempPathFor } from "./atomic-write.js";
import { SkillWriteError } from "./errors.js";
import { fileWriteState } from "./file-write-state.js";
import { sha256 } from "./hash.js";
import type { HistoryEntry } from "./history-store.js";
import type { LedgerRecord, LedgerType } from "./ledger.js";
import { type LockOptions, removeDeadLockScratch, withFileLock } from "./lock.js";
import { bumpVersion, readVersion } from "./version-bump.js";

export interface SkillStoreOptions {
  /** Where skills are found by name: a shelf, or any SkillSource. */
  source: SkillSource;
  /** skillshelf's state folder: history in `<stateDir>/history/<name>/`, the ledger in `<stateDir>/ledger.jsonl` (unless `state` is given). */
  stateDir: string;
  /**
   * Where versions and the ledger are kept, and who holds a skill for writing across
   * instances (a shared state store). Default: files under `stateDir`.
   */
  state?: Pick<StateStore, "history" | "ledger" | "writeSkill">;
  /** Earlier versions kept per skill, besides the current one (default 10); older ones are pruned. */
  keep?: number;
  lock?: LockOptions;
  /** Validates new content (default parseSkill). */
  parse?: (text: string | Uint8Array, options: ParseOptions) => ParseResult;
  /** The mode the loader parses in (default lenient): a write must load the way the loader reads it. */
  mode?: ParseMode;
  /** Largest SKILL.md the loader loads, in bytes (default MAX_SKILL_FILE_BYTES, 1 MiB). */
  maxBytes?: number;
  /**
   * Where a skill's SKILL.md is when `source` does not have it because the file no longer
   * loads (a broken hand edit): a shelf answers from its loader's diagnostics. Lets
   * rollback repair such a file.
   */
  locate?: (name: string) => string | undefined;
  /** File-system calls of atomic writes (tests inject failures here). */
  fs?: AtomicFs;
  events?: EventSink;
  /** Called after every managed write (a shelf refreshes its copy here). */
  afterWrite?: (result: WriteResult) => void | Promise<void>;
}

export interface WriteOptions {
  /**
   * sha256 of the file as the caller last read it (`skill.hash`, or a version's `hash`).
   * When the file no longer has it, the write fails with CONFLICT and nothing changes.
   */
  expectedHash: string;
  /** Free text kept in the ledger with this write. */
  note?: string;
}

/** Internal: what kind of decision a write records (rollback, accepted proposal). */
export interface CommitOptions extends WriteOptions {
  type?: Extract<LedgerType, "write" | "rollback" | "accepted">;
  record?: Partial<Pick<LedgerRecord, "to" | "proposal" | "tokens" | "flags" | "reason">>;
}

export interface WriteResult {
  name: string;
  file: string;
  /** False when the content was identical to the file (nothing written, no version bump). */
  changed: boolean;
  hash: string;
  previousHash: string;
  version: string | undefined;
  previousVersion: string | undefined;
  /** History id of the version now current (`"current"` if it could not be kept yet; see `notes`). */
  versionId: string;
  /** The exact text now in the file (the version bumped). */
  content: string;
  /** Things worth telling a user (a version left as is, a folder that could not be fsynced). */
  notes: string[];
  /**
   * A hand edit that landed while this write was under way (after its last check): the
   * write replaced it, and it is kept in history under `versionId`, right before this one.
   */
  replacedEdit?: { hash: string; versionId: string };
  /**
   * A hand edit written, after the rename, into the file this write replaced (an editor
   * that opened it before): it never reached the file, and is kept in history under
   * `versionId`, right before a second entry of this write's content.
   */
  lateEdit?: { hash: string; versionId: string };
}

export interface RollbackResult extends WriteResult {
  /** Id of the version restored (`current` when it was the unrecorded current file). */
  restored: string;
}

/** One version of a skill: a kept copy, or the current file. Newest first in `history()`. */
export interface VersionInfo {
  /** History id; `"current"` for a current file not (yet) on record. */
  id: string;
  at: string | undefined;
  version: string | undefined;
  hash: string;
  size: number;
  /** This is the file's content now. */
  current: boolean;
  /** A kept copy exists (false only for an unrecorded current file). */
  recorded: boolean;
  /** What produced it, from the ledger: a write, rollback, accepted proposal, external edit, or `initial` (found before the first managed write). */
  source: LedgerType | "initial" | undefined;
  /** False when a kept copy no longer matches its id's hash. */
  intact: boolean;
}

export interface SkillStore {
  readonly history: VersionStore;
  readonly ledger: LedgerStore;
  write(name: string, content: string, options: WriteOptions): Promise<WriteResult>;
  /** @internal The write every managed change goes through; `type` names the ledger decision. */
  commit(name: string, content: string, options: CommitOptions): Promise<WriteResult>;
  /** Kept versions, newest first; the first one is the current file. */
  versions(name: string): Promise<VersionInfo[]>;
  /**
   * One version's exact text. References: `current`, a history id or a unique prefix of
   * it, `~N` (N versions before the current one), a version (`1.0.3`) or a sha256 prefix.
   */
  read(name: string, ref?: string): Promise<string>;
  resolve(name: string, ref: string): Promise<VersionInfo>;
  /** Unified diff from `a` to `b` (default the current file). */
  diff(name: string, a: string, b?: string, options?: { context?: number }): Promise<string>;
  /** Restores a kept version as a new managed write (so it can itself be rolled back). */
  rollback(name: string, ref: string, options?: { expectedHash?: string }): Promise<RollbackResult>;
  /**
   * For refresh(): if a managed skill's file changed outside a managed write, keep the new
   * content on record (the version before it already is). Cheap when nothing changed.
   */
  recordExternalChange(name: string, knownHash?: string): Promise<{ recorded: boolean; versionId?: string }>;
}

const DEFAULT_KEEP = 10;

export function createSkillStore(options: SkillStoreOptions): SkillStore {
  const keep = Math.max(0, options.keep ?? DEFAULT_KEEP);
  const state = options.state ?? fileWriteState(options.stateDir, options.fs);
  const { history, ledger } = state;
  const parse = options.parse ?? ((text, o) => parseSkill(text, o));
  const mode = options.mode ?? "lenient";
  const maxBytes = options.maxBytes ?? MAX_SKILL_FILE_BYTES;
  // The current version counts as one entry: keep + 1 in total.
  const entriesKept = keep + 1;

  /** The file of a writable skill; undefined when there is none (throws for a builtin). */
  function locate(name: string): string | undefined {
    const skill = options.source.get(name);
    if (!skill) return options.locate?.(name);
    if (skill.scope === "builtin" || skill.dir === undefined) {
      throw new SkillWriteError(
        "NOT_WRITABLE",
        `"${name}" is a builtin skill, defined in code; to change it, create a project skill of the same name (.skillshelf/skills/${name}/SKILL.md), which overrides it unless it is locked`,
        { name, scope: skill.scope },
      );
    }
    return skill.file;
  }

  async function writable(name: string): Promise<string> {
    const file = locate(name);
    if (file !== undefined) return file;
    const kept = await history.isManaged(name).catch(() => false);
    throw new SkillWriteError(
      "NOT_FOUND",
      kept
        ? `no SKILL.md for "${name}" was found (deleted or moved?); its kept versions are still listed by history() and readable with read(); recreate the file to write it again`
        : `no skill named "${name}"`,
      { name },
    );
  }

  function validate(name: string, file: string, content: string): void {
    const size = Buffer.byteLength(content);
    if (size > maxBytes) {
      throw new SkillWriteError(
        "INVALID",
        `the new content of ${name} is ${size} bytes; SKILL.md files over ${maxBytes} bytes are not loaded, so it would not load; nothing was written`,
        { name, size, maxBytes },
      );
    }
    // The bytes, as the loader reads them (its binary and encoding checks apply to bytes).
    const result = parse(Buffer.from(content, "utf8"), { path: file, mode });
    if (!result.skill) {
      const errors = result.diagnostics.filter((d) => d.severity === "error");
      const first = errors[0];
      throw new SkillWriteError(
        "INVALID",
        `the new content of ${name} is not a valid SKILL.md${first ? ` (line ${first.line}: ${first.message}; ${first.hint})` : ""}; nothing was written`,
        { name, diagnostics: result.diagnostics },
      );
    }
    if (result.skill.name !== name) {
      throw new SkillWriteError(
        "NAME_CHANGED",
        `the new content names "${result.skill.name}", not "${name}"; a managed write keeps the name (rename the folder by hand to rename a skill); nothing was written`,
        { name, newName: result.skill.name },
      );
    }
  }

  async function readCurrent(file: string, name: string): Promise<Buffer> {
    try {
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new SkillWriteError("NOT_FOUND", `${file} no longer exists (skill "${name}")`, { name, file });
      }
      throw error;
    }
  }

  /**
   * A shared store can know a newer version than this instance's file: another instance
   * wrote the skill. When the file holds an older kept version (it is behind, not edited by
   * hand), it is brought up to the store's current content, so the compare-and-swap below
   * runs against what every instance agrees on. A file whose content is on no record is a
   * hand edit: it is kept as one, as with the file store.
   */
  async function catchUp(
    name: string,
    file: string,
    fileHash: string,
    scope: SkillWriteScope,
  ): Promise<{ bytes: Buffer; hash: string } | undefined> {
    const head = await scope.head();
    if (head === undefined || head === fileHash) return undefined;
    const entries = await scope.history.list(name);
    // By hash, not by position: two versions kept in the same millisecond (the replaced one and
    // the new one) may list in either order, and taking the wrong one let a second instance's
    // write pass the compare-and-swap (1 round in ~100 of the racing test).
    const newest = entries.find((e) => e.hash === head);
    if (!newest) return undefined;
    // Older than what is kept: the ledger names every version a decision replaced.
    const known =
      entries.some((e) => e.hash === fileHash) ||
      (await ledger.read({ skill: name })).records.some((r) => r.before === fileHash || r.after === fileHash);
    if (!known) return undefined;
    const bytes = await scope.history.read(name, newest.id);
    if (sha256(bytes) !== head) return undefined; // a damaged copy is never spread
    await atomicWrite(file, bytes, {
      fs: options.fs,
      // A hand edit since the file was read is not an old version: it fails the write and stays.
      beforeRename: async () => {
        const now = sha256(await readCurrent(file, name));
        if (now !== fileHash) throw changedMeanwhile(name, file, fileHash, now);
      },
    });
    return { bytes, hash: head };
  }

  async function commit(name: string, content: string, commitOptions: CommitOptions): Promise<WriteResult> {
    const located = await writable(name);
    // A SKILL.md that is a link (within its root) is written through: the rename must
    // replace the real file, not the link.
    const file = await realpath(located).catch(() => located);
    validate(name, file, content);

    // The file's lock first, then the store's hold on the skill: every writer takes them in
    // this order, so two can never wait for each other.
    const result = await withFileLock(
      file,
      (lock) =>
        state.writeSkill(name, async (scope) => {
          const { history, ledger } = scope;
          await removeStaleTempFiles(dirname(file), basename(file));
          removeDeadLockScratch(file);
          const notes: string[] = [];
          let currentBytes = await readCurrent(file, name);
          let currentHash = sha256(currentBytes);
          const pulled = await catchUp(name, file, currentHash, scope);
          if (pulled) {
            currentBytes = pulled.bytes;
            currentHash = pulled.hash;
            notes.push(
              `${file} was behind the shared store (another instance wrote ${name}); it was brought up to date first`,
            );
          }
          if (currentHash !== commitOptions.expectedHash) {
            throw new SkillWriteError(
              "CONFLICT",
              `${name} changed since it was read (expected sha256 ${commitOptions.expectedHash.slice(0, 12)}…, found ${currentHash.slice(0, 12)}…); re-read it, re-apply your change and write again; nothing was written`,
              { name, file, expectedHash: commitOptions.expectedHash, actualHash: currentHash },
            );
          }
          const currentText = currentBytes.toString("utf8");
          const previousVersion = readVersion(currentText);

          // Whatever happens next, the version being replaced is on record first.
          const kept = await history.add(name, currentBytes, { version: previousVersion, keep: entriesKept });
          if (kept.added && kept.previous) {
            await ledger.append({
              type: "external-edit",
              skill: name,
              before: kept.previous.hash,
              after: currentHash,
              version: previousVersion,
              versionId: kept.entry.id,
              note: "changed outside a managed write (hand edit, or a write interrupted before it was recorded)",
            });
          }

          if (content === currentText) {
            return {
              name,
              file,
              changed: false,
              hash: currentHash,
              previousHash: currentHash,
              version: previousVersion,
              previousVersion,
              versionId: kept.entry.id,
              content,
              notes,
            } satisfies WriteResult;
          }

          const bump = bumpVersion(content, previousVersion);
          if (bump.note) notes.push(bump.note);
          if (bump.text !== content) validate(name, file, bump.text);
          const hash = sha256(bump.text);

          lock.assertHeld();
          // A second name for the file being replaced (same inode): whatever a hand edit writes
          // into it up to the rename can still be read afterwards. Named like a temp file, so
          // a crash leaves nothing the next writer does not clean up.
          let aside: string | undefined = tempPathFor(file);
          let written: Awaited<ReturnType<typeof atomicWrite>>;
          try {
            written = await atomicWrite(file, bump.text, {
              fs: options.fs,
              beforeRename: async () => {
                const now = sha256(await readCurrent(file, name));
                if (now !== currentHash) throw changedMeanwhile(name, file, currentHash, now);
                lock.assertHeld();
                // Linked last, so only the gap between two system calls is left uncovered.
                await link(file, aside!).catch(() => {
                  aside = undefined; // no hard links here (some network or FAT volumes): checked only
                });
              },
            });
          } catch (error) {
            if (aside) await rm(aside, { force: true }).catch(() => {});
            throw error;
          }
          // From here on the write has happened: bookkeeping failures become notes, not errors
          // (an error would tell the caller the file is unchanged). What is not recorded now
          // is recorded by the next write or refresh, as an external edit.
          if (!written.dirSynced)
            notes.push(
              `could not fsync ${dirname(file)}; the write is complete but may not survive a power loss`,
            );
          let replacedEdit: WriteResult["replacedEdit"];
          if (aside) {
            try {
              replacedEdit = await keepEditFoundAside(scope, name, aside, currentHash, {
                ledgerNote: "changed by hand while a managed write was under way; that write replaced it",
                keep: entriesKept,
              });
              if (replacedEdit)
                notes.push(
                  `${file} was edited while this write was under way; the edit was replaced, and is kept in history as ${replacedEdit.versionId} (compare it with the current file to bring it back)`,
                );
            } catch (error) {
              notes.push(`could not check for an edit made during the write (${(error as Error).message})`);
            }
          }
          let versionId = "current";
          try {
            versionId = (await history.add(name, bump.text, { version: bump.version, keep: entriesKept }))
              .entry.id;
          } catch (error) {
            notes.push(
              `written, but not yet kept in history (${(error as Error).message}); the next write or refresh records it`,
            );
          }
          try {
            await ledger.append({
              type: commitOptions.type ?? "write",
              skill: name,
              before: replacedEdit?.hash ?? currentHash,
              after: hash,
              version: bump.version,
              ...(versionId !== "current" ? { versionId } : {}),
              ...(commitOptions.note ? { note: commitOptions.note } : {}),
              ...commitOptions.record,
            });
          } catch (error) {
            notes.push(`written, but the ledger could not be appended to (${(error as Error).message})`);
          }
          // Looked at once more, last: an editor that opened the file before the rename still
          // writes into the replaced copy, and its write may land during the bookkeeping above.
          let lateEdit: WriteResult["lateEdit"];
          if (aside) {
            try {
              lateEdit = await keepEditFoundAside(scope, name, aside, replacedEdit?.hash ?? currentHash, {
                ledgerNote:
                  "written by hand into the replaced file (opened before a managed write) after that write replaced it",
                keep: entriesKept,
              });
              if (lateEdit) {
                // The newest entry must be the file's content again: the next write's check,
                // refresh and a shared store's head all read the current version from it.
                versionId = (await history.add(name, bump.text, { version: bump.version, keep: entriesKept }))
                  .entry.id;
                notes.push(
                  `${file} was edited while this write was under way, through a copy opened before it; the edit did not reach the file, and is kept in history as ${lateEdit.versionId} (compare it with the current file to bring it back)`,
                );
              }
            } catch (error) {
              notes.push(`could not check for an edit made during the write (${(error as Error).message})`);
            } finally {
              await rm(aside, { force: true }).catch(() => {});
            }
          }
          return {
            name,
            file,
            changed: true,
            hash,
            previousHash: currentHash,
            version: bump.version,
            previousVersion,
            versionId,
            content: bump.text,
            notes,
            ...(replacedEdit ? { replacedEdit } : {}),
            ...(lateEdit ? { lateEdit } : {}),
          } satisfies WriteResult;
        }),
      options.lock,
    );

    if (result.changed) {
      options.events?.emit({
        type: "skill-written",
        at: new Date().toISOString(),
        skill: name,
        ...(result.version ? { version: result.version } : {}),
        before: result.previousHash,
        after: result.hash,
      });
      await options.afterWrite?.(result);
    }
    return result;
  }

  async function versions(name: string): Promise<VersionInfo[]> {
    const file = locate(name);
    const [entries, currentBytes, { records }] = await Promise.all([
      history.list(name),
      file === undefined ? undefined : readFile(file).catch(() => undefined),
      ledger.read({ skill: name }),
    ]);
    // Kept versions are enough: a skill whose file no longer loads (or is gone) still has its history.
    if (file === undefined && entries.length === 0) {
      throw new SkillWriteError("NOT_FOUND", `no skill named "${name}"`, { name });
    }
    const currentHash = currentBytes ? sha256(currentBytes) : undefined;
    const producedBy = new Map<string, LedgerType>();
    const replaced = new Set<string>();
    for (const record of records) {
      if (record.before) replaced.add(record.before);
      if (!record.after || record.after === record.before) continue;
      // A write whose recording was interrupted is re-found later as an external edit: the write is the truer source.
      if (record.type !== "external-edit" || !producedBy.has(record.after))
        producedBy.set(record.after, record.type);
      if (record.before) replaced.add(record.before);
    }
    const source = (hash: string): VersionInfo["source"] =>
      producedBy.get(hash) ?? (replaced.has(hash) ? "initial" : undefined);

    const list: VersionInfo[] = entries.map((entry: HistoryEntry, index) => ({
      id: entry.id,
      at: entry.at,
      version: entry.version,
      hash: entry.hash,
      size: entry.size,
      current: index === 0 && entry.hash === currentHash,
      recorded: true,
      source: source(entry.hash),
      intact: entry.intact,
    }));
    if (currentBytes && currentHash && list[0]?.current !== true) {
      list.unshift({
        id: "current",
        at: undefined,
        version: readVersion(currentBytes.toString("utf8")),
        hash: currentHash,
        size: currentBytes.length,
        current: true,
        recorded: false,
        source: list.length > 0 ? "external-edit" : undefined,
        intact: true,
      });
    }
    return list;
  }

  async function resolve(name: string, ref: string): Promise<VersionInfo> {
    const list = await versions(name);
    const wanted = ref.trim();
    const fail = (code: "NOT_FOUND" | "AMBIGUOUS", message: string, matches: VersionInfo[] = list) => {
      const ids = matches.slice(0, 12).map((v) => `${v.current ? "current  " : ""}${v.id}`);
      return new SkillWriteError(
        code,
        `${message}; ${code === "AMBIGUOUS" ? "matches" : "kept versions"}: ${ids.join(", ") || "none"}`,
        {
          name,
          ref,
          ids,
        },
      );
    };
    if (wanted === "current" || wanted === "~0") {
      const current = list.find((v) => v.current);
      if (!current) throw fail("NOT_FOUND", `${name} has no current file`);
      return current;
    }
    const back = /^~(\d+)$/.exec(wanted);
    if (back) {
      const version = list[Number(back[1])];
      if (!version)
        throw fail(
          "NOT_FOUND",
          `${name} has only ${list.length - 1} earlier version(s); "${ref}" goes further back`,
        );
      return version;
    }
    const exact = list.find((v) => v.id === wanted);
    if (exact) return exact;
    const candidates = [
      list.filter((v) => v.recorded && v.id.startsWith(wanted)),
      list.filter(
        (v) =>
          v.version !== undefined &&
          (v.version === wanted || `v${v.version}` === wanted || v.version === `v${wanted}`),
      ),
      /^[0-9a-f]{4,64}$/.test(wanted) ? list.filter((v) => v.hash.startsWith(wanted)) : [],
    ];
    for (const matches of candidates) {
      // The same content can be on record twice (e.g. an edit reverted by hand): one answer.
      const distinct = new Map(matches.map((v) => [v.hash, v]));
      if (distinct.size === 1) return matches[0]!;
      if (matches.length > 1)
        throw fail(
          "AMBIGUOUS",
          `"${ref}" matches ${matches.length} versions of ${name}; use a full id`,
          matches,
        );
    }
    throw fail("NOT_FOUND", `no version of ${name} matches "${ref}"`);
  }

  async function read(name: string, ref = "current"): Promise<string> {
    const version = await resolve(name, ref);
    if (!version.recorded) return (await readCurrent(await writable(name), name)).toString("utf8");
    return (await history.read(name, version.id)).toString("utf8");
  }

  return {
    history,
    ledger,
    commit,
    write: (name, content, writeOptions) =>
      commit(name, content, { expectedHash: writeOptions.expectedHash, note: writeOptions.note }),
    versions,
    resolve,
    read,
    async diff(name, a, b = "current", diffOptions = {}) {
      const [from, to] = await Promise.all([resolve(name, a), resolve(name, b)]);
      const [textA, textB] = await Promise.all([
        read(name, from.recorded ? from.id : "current"),
        read(name, to.recorded ? to.id : "current"),
      ]);
      const label = (v: VersionInfo) =>
        `${name}@${v.id}${v.current && v.id !== "current" ? " (current)" : ""}`;
      // Loaded on first use: most processes that write never diff.
      const { createTwoFilesPatch } = await import("diff");
      return createTwoFilesPatch(label(from), label(to), textA, textB, undefined, undefined, {
        context: diffOptions.context ?? 3,
      });
    },
    async rollback(name, ref, rollbackOptions = {}) {
      const target = await resolve(name, ref);
      const content = await read(name, target.recorded ? target.id : "current");
      const expectedHash =
        rollbackOptions.expectedHash ?? sha256(await readCurrent(await writable(name), name));
      const result = await commit(name, content, {
        expectedHash,
        type: "rollback",
        record: { to: target.id },
      });
      return { ...result, restored: target.id };
    },
    async recordExternalChange(name, knownHash) {
      let skillFile: string | undefined;
      try {
        skillFile = locate(name);
      } catch {
        return { recorded: false };
      }
      if (skillFile === undefined) return { recorded: false };
      const file = skillFile;
      const newest = await history.newestId(name);
      if (newest === undefined) return { recorded: false }; // not managed: nothing earlier to keep
      if (knownHash !== undefined && newest.endsWith(`_${knownHash.slice(0, 8)}`)) return { recorded: false };
      try {
        return await withFileLock(
          file,
          () =>
            state.writeSkill(name, async ({ head, history, ledger }) => {
              const bytes = await readFile(file).catch(() => undefined);
              if (!bytes) return { recorded: false };
              // A shared store that has moved on, and a file holding one of its older versions:
              // this copy is behind (another instance wrote), not edited. Recording it as the
              // newest version would make the store's head go back, and the next write of a
              // stale copy pass the compare-and-swap. The next write here catches it up.
              const current = await head();
              if (current !== undefined && current !== sha256(bytes)) {
                const hash = sha256(bytes);
                if ((await history.list(name)).some((e) => e.hash === hash)) return { recorded: false };
              }
              const version = readVersion(bytes.toString("utf8"));
              const kept = await history.add(name, bytes, { version, keep: entriesKept });
              if (!kept.added) return { recorded: false, versionId: kept.entry.id };
              await ledger.append({
                type: "external-edit",
                skill: name,
                before: kept.previous?.hash ?? null,
                after: kept.entry.hash,
                version,
                versionId: kept.entry.id,
                note: "changed outside a managed write (hand edit, or a write interrupted before it was recorded)",
              });
              return { recorded: true, versionId: kept.entry.id };
            }),
          { ...options.lock, wait: Math.min(options.lock?.wait ?? 2_000, 2_000) },
        );
      } catch (error) {
        // A managed write holds the lock: it records what it finds itself.
        if (error instanceof SkillWriteError && error.code === "LOCKED") return { recorded: false };
        throw error;
      }
    },
  };
}

/**
 * Reads the replaced file's second name; when its content is no longer `lastSeen`, a hand
 * edit landed in it: kept in history (as the newest entry) and in the ledger.
 */
async function keepEditFoundAside(
  { history, ledger }: SkillWriteScope,
  name: string,
  aside: string,
  lastSeen: string,
  { ledgerNote, keep }: { ledgerNote: string; keep: number },
): Promise<{ hash: string; versionId: string } | undefined> {
  const found = await readFile(aside);
  const hash = sha256(found);
  if (hash === lastSeen) return undefined;
  const version = readVersion(found.toString("utf8"));
  const kept = await history.add(name, found, { version, keep });
  await ledger.append({
    type: "external-edit",
    skill: name,
    before: lastSeen,
    after: hash,
    version,
    versionId: kept.entry.id,
    note: ledgerNote,
  });
  return { hash, versionId: kept.entry.id };
}

function changedMeanwhile(name: string, file: string, expected: string, actual: string): SkillWriteError {
  return new SkillWriteError(
    "CONFLICT",
    `${name} was changed (by hand?) while it was being written (expected sha256 ${expected.slice(0, 12)}…, found ${actual.slice(0, 12)}…); the change is kept as it is; re-read it, re-apply your change and write again; nothing was written`,
    { name, file, expectedHash: expected, actualHash: actual },
  );
}
