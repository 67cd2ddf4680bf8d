/**
 * Scanning one skills folder into a small tree the loader can re-check cheaply.
 *
 * Layout (DESIGN.md §4): `<root>/<name>/SKILL.md` and one category level
 * `<root>/<category>/<name>/SKILL.md`; `skill.md` is accepted when there is no `SKILL.md`.
 * Hidden folders (`.git`, `.cache`, …) and `node_modules` are skipped; a symbolic link is
 * followed only when its target stays inside the root. A folder holding a skill file is a
 * skill and is not descended into (anything below it is the skill's own resources).
 *
 * Each non-skill folder keeps its signature: adding or deleting an entry changes the
 * folder's mtime, so refresh() re-reads only the folders whose signature moved, and
 * reuses every child it already knows.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { diagnostic } from "../diagnostic.js";
import { ownString } from "../parse/own-string.js";
import type { Diagnostic } from "../types.js";
import { type Signature, signatureOf, signatureOfStats } from "./signature.js";

/**
 * What a folder without children or problems holds — most of them: a skill folder is not
 * descended into. Shared, because a Map and an array per skill were ≈ 6 MB of the mirror's
 * 16,000-folder tree, kept for the shelf's life.
 */
export const NO_CHILDREN: ReadonlyMap<string, ScanNode> = new Map();
export const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

/** Deepest folder level that can hold a skill: 1 = `<root>/<name>`, 2 = `<root>/<category>/<name>`. */
export const MAX_SKILL_DEPTH = 2;

/** Exact names accepted for the skill file, preferred first. */
export const SKILL_FILE_NAMES = ["SKILL.md", "skill.md"] as const;

export interface ScanNode {
  /** The folder as reached from the root (a link's own path, not its target). */
  path: string;
  /** 0 = the root, 1 = skill or category, 2 = skill inside a category. */
  depth: number;
  /**
   * Signature of a folder that is not a skill (root, category, empty folder), taken before it
   * was listed. Undefined for skill folders (their skill file's signature is checked instead)
   * and for a root that does not exist.
   */
  sig?: Signature;
  /** Absolute path of the skill file when this folder is a skill. */
  skillFile?: string;
  /**
   * The skill file's signature from the scan's own lstat, until the loader takes it for the
   * read that follows (taken once: a later read must stat again).
   */
  skillSig?: Signature;
  children: ReadonlyMap<string, ScanNode>;
  /** Problems found while listing this folder (links leaving the root, unreadable folders). */
  diagnostics: readonly Diagnostic[];
  /** Set once a rescan of the parent dropped this node. */
  detached?: boolean;
  /** The skill file is a symbolic link: a watch on this folder does not see its target change. */
  skillLinked?: boolean;
}

export interface ScanContext {
  /** realpath of the root: links must resolve inside it. */
  rootReal: string;
  /** Bounds concurrent readdir calls across the whole scan. */
  limit: <T>(task: () => Promise<T>) => Promise<T>;
}

/** A semaphore: `limit(task)` runs at most `n` tasks at once. Only the I/O call holds a slot. */
export function createLimiter(n: number): ScanContext["limit"] {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export function isSkippedName(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

function isInside(real: string, rootReal: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

type EntryKind = "file" | "dir" | "other" | { escape: string };

/** What a directory entry is, following a link only when it stays inside the root. */
function entryKind(entry: Dirent, full: string, ctx: ScanContext): EntryKind {
  if (entry.isDirectory()) return "dir";
  if (entry.isFile()) return "file";
  if (!entry.isSymbolicLink() && !isUnknown(entry)) return "other";
  try {
    const st = fs.statSync(full);
    if (entry.isSymbolicLink()) {
      const real = fs.realpathSync(full);
      if (!isInside(real, ctx.rootReal)) return { escape: real };
    }
    return st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  } catch {
    return "other"; // dangling link or vanished entry: nothing to load
  }
}

/** The signature of `file` when it is a plain file (not a link), else undefined. */
function plainFileSignature(file: string): Signature | undefined {
  try {
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    return st?.isFile() ? signatureOfStats(st) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `path.join(dir, name)` for a normalised `dir` and an entry name (which holds no separator and
 * is never `.` or `..`): the same string without path.join's normalising pass, which was a
 * twentieth of what a scan of the mirror's 16,000 folders allocates.
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
}

/**
 * `${dir}${path.sep}${name}` as one flat string of its own: what {@link ownString} makes of it
 * (the path is kept for the shelf's life, and a template literal is a tree holding its parts),
 * without the round trip through UTF-8 bytes, which was a tenth of a cold scan of the mirror's
 * 15,725 skill folders. V8 joins an array's strings into a new sequential string.
 */
function joinedPath(dir: string, name: string): string {
  return [dir, path.sep, name].join("");
}

/** Some file systems do not report entry types (DT_UNKNOWN); those need a stat. */
function isUnknown(entry: Dirent): boolean {
  return (
    !entry.isFile() &&
    !entry.isDirectory() &&
    !entry.isSymbolicLink() &&
    !entry.isFIFO() &&
    !entry.isSocket() &&
    !entry.isCharacterDevice() &&
    !entry.isBlockDevice()
  );
}

function escapeDiagnostic(link: string, target: string): Diagnostic {
  return diagnostic({
    severity: "warning",
    code: "symlink-escape",
    message: `Symbolic link ${link} points outside its skills folder (to ${target}); it is not followed.`,
    file: link,
  });
}

/**
 * Lists `dir` at `depth` and builds its node. `reuse` holds the previous children of the same
 * folder: a child whose name is still there is kept as is (refresh checks it separately).
 */
export async function scanNode(
  dir: string,
  depth: number,
  ctx: ScanContext,
  reuse?: ReadonlyMap<string, ScanNode>,
): Promise<ScanNode> {
  if (depth > 0) {
    const skill = skillFolderNode(dir, depth);
    if (skill !== undefined) return skill;
  }
  return listFolder(dir, depth, ctx, reuse);
}

/**
 * Fast path for the common case, a plain SKILL.md: one lstat (~2 µs) instead of a listing
 * (~10–15 µs), and its stats are the file's signature for the read that follows. Links and
 * lower-case names take the full path ({@link listFolder}). Undefined when it does not apply.
 * Synchronous, and called by the parent's listing for each child folder: an async call per
 * skill folder (its promise and its frame, which holds every register of the listing code)
 * was ≈ 0.8 kB each, most of what a cold scan of the mirror's 15,725 folders allocated.
 */
function skillFolderNode(dir: string, depth: number): ScanNode | undefined {
  // `dir` is a normalised path without a trailing separator (a root joined with names).
  const file = joinedPath(dir, SKILL_FILE_NAMES[0]);
  const sig = plainFileSignature(file);
  if (sig === undefined) return undefined;
  // The folder's path as a view of the file's: one string kept per skill, not two.
  const node = newNode(file.slice(0, file.length - SKILL_FILE_NAMES[0].length - 1), depth);
  node.skillFile = file;
  node.skillSig = sig;
  return node;
}

/** {@link scanNode} past its fast path: lists the folder. */
async function listFolder(
  dir: string,
  depth: number,
  ctx: ScanContext,
  reuse: ReadonlyMap<string, ScanNode> | undefined,
): Promise<ScanNode> {
  const diagnostics: Diagnostic[] = [];
  // Paths are kept for the shelf's life, and `path.join` builds them as a tree of slices.
  const node = newNode(ownString(dir), depth);
  // Signature before listing: an entry added while we list shows up as a change next time.
  const sig = signatureOf(dir);
  let entries: Dirent[];
  try {
    entries = await ctx.limit(() => fsp.readdir(dir, { withFileTypes: true }));
  } catch (error) {
    // Keep the signature (undefined when missing) so the next refresh only rescans if it moves.
    node.sig = sig;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      node.diagnostics = [
        diagnostic({
          severity: "warning",
          code: "read-error",
          message: `Cannot list ${dir}: ${(error as Error).message}`,
          file: dir,
        }),
      ];
    }
    return node;
  }

  if (depth > 0) {
    for (const name of SKILL_FILE_NAMES) {
      const entry = entries.find((e) => e.name === name);
      if (!entry) continue;
      const full = ownString(path.join(dir, name));
      const kind = entryKind(entry, full, ctx);
      if (typeof kind === "object") {
        diagnostics.push(escapeDiagnostic(full, kind.escape));
        continue;
      }
      // Anything else by that name (a folder, a FIFO) is still the skill's file, so the reader
      // reports it ("not a regular file") instead of the skill vanishing silently. Only a
      // dangling link, which has nothing to report on, is passed over.
      if (kind === "file" || signatureOf(full) !== undefined) {
        node.skillFile = full;
        if (entry.isSymbolicLink() || isUnknown(entry)) node.skillLinked = true;
        if (diagnostics.length > 0) node.diagnostics = diagnostics;
        return node;
      }
    }
  }

  node.sig = sig;
  if (diagnostics.length > 0) node.diagnostics = diagnostics;
  if (depth >= MAX_SKILL_DEPTH) return node;

  const subdirs: string[] = [];
  for (const entry of entries) {
    if (isSkippedName(entry.name)) continue;
    // Skill-file names were looked at (and any escaping link reported) just above.
    if (depth > 0 && (SKILL_FILE_NAMES as readonly string[]).includes(entry.name)) continue;
    // A folder needs no path here (only a link or an untyped entry is stat'ed).
    if (entry.isDirectory()) {
      subdirs.push(entry.name);
      continue;
    }
    const full = childPath(dir, entry.name);
    const kind = entryKind(entry, full, ctx);
    if (kind === "dir") subdirs.push(entry.name);
    else if (typeof kind === "object") diagnostics.push(escapeDiagnostic(full, kind.escape));
  }
  if (diagnostics.length > 0) node.diagnostics = diagnostics;
  // Sorted so the tree (and everything derived from it) does not depend on readdir order.
  subdirs.sort();
  // In order, as `Promise.all(subdirs.map(scanNode))` would: each child's fast path, or its
  // listing started, before the next child's.
  const children: ScanNode[] = new Array(subdirs.length);
  let pending: Promise<void>[] | undefined;
  for (let i = 0; i < subdirs.length; i++) {
    const name = subdirs[i] as string;
    const known = reuse?.get(name);
    if (known !== undefined) {
      children[i] = known;
      continue;
    }
    const child = childPath(dir, name);
    const skill = skillFolderNode(child, depth + 1);
    if (skill !== undefined) {
      children[i] = skill;
      continue;
    }
    pending ??= [];
    pending.push(
      listFolder(child, depth + 1, ctx, undefined).then((node) => {
        children[i] = node;
      }),
    );
  }
  if (pending !== undefined) await Promise.all(pending);
  if (subdirs.length > 0) {
    const byName = new Map<string, ScanNode>();
    for (let i = 0; i < subdirs.length; i++) byName.set(subdirs[i] as string, children[i] as ScanNode);
    node.children = byName;
  }
  return node;
}

/**
 * Re-lists a folder in place, keeping the children it still has. Children that disappeared
 * are marked detached, so a pending re-check of them is skipped.
 */
export async function rescanNode(node: ScanNode, ctx: ScanContext): Promise<void> {
  const fresh = await scanNode(node.path, node.depth, ctx, node.children);
  for (const [name, child] of node.children) {
    if (fresh.children.get(name) !== child) detach(child);
  }
  node.sig = fresh.sig;
  node.skillFile = fresh.skillFile;
  node.skillSig = fresh.skillSig;
  node.skillLinked = fresh.skillLinked;
  node.children = fresh.children;
  node.diagnostics = fresh.diagnostics;
}

/** A node with every field set, so all nodes keep one shape with all fields inside the object. */
export function newNode(dir: string, depth: number): ScanNode {
  return {
    path: dir,
    depth,
    sig: undefined,
    skillFile: undefined,
    skillSig: undefined,
    children: NO_CHILDREN,
    diagnostics: NO_DIAGNOSTICS,
    detached: undefined,
    skillLinked: undefined,
  };
}

function detach(node: ScanNode): void {
  node.detached = true;
  for (const child of node.children.values()) detach(child);
}

/**
 * Every node of the tree under `node`, itself first, each folder's children in their order.
 * A list, not a generator: a load walks the tree several times, and a generator per node
 * (with an iterator per leaf's empty map) was ≈ 7 MB of what a load of the mirror's 16,000
 * folders allocates.
 */
export function walk(node: ScanNode, into: ScanNode[] = []): ScanNode[] {
  into.push(node);
  if (node.children.size > 0) for (const child of node.children.values()) walk(child, into);
  return into;
}
