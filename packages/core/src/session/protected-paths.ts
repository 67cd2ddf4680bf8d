/**
 * Skill files are the whitelist's source, so a model must not be able to edit its way out
 * of a restriction (rewrite, delete, shadow or add a SKILL.md) or into the next
 * conversation's prompt. A guarded tool call whose arguments point into a skill root or
 * skillshelf's state folder is refused, unless the tool only reads. So is one that names a
 * folder above a root inside the project or home (`.agents` for `.agents/skills`): moved
 * away or replaced by a symlink, the root would be the model's own.
 *
 * This looks at arguments, not at what a tool does: it catches paths and shell commands that
 * name those folders (also through a glob, a brace, `$PWD` or a symlink already on disk),
 * not a program that computes the path at run time. It is a tripwire for a model that edits
 * files, not a sandbox (SECURITY.md says so).
 */
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { globSegmentMatches, hasGlob } from "./glob-segment.js";
import { braceExpandedText, braceExpansions, shellJoinedText, shellJoinedWords } from "./shell-spelling.js";

/** Arguments nested deeper, or with more strings, than this are refused unread (fail closed). */
const MAX_DEPTH = 32;
const MAX_LEAVES = 4096;
/** Past this length a string's words are checked without following symlinks, but its first line's are. */
const MAX_LINKED_STRING = 16_384;
const MAX_SINGLE_PATH = 4096;

export interface ProtectedPaths {
  /** The protected folder a call's arguments point into, if any. */
  find(input: unknown): string | undefined;
}

/** What separates the words of a command line that could each be a path. */
const WORD_BREAK = /[\s'"`;&|<>()=,+]+/;
/** `$PWD`, `${PWD}`, `$(pwd)` and `` `pwd` ``: the working folder, as the shell expands it. */
const WORKING_FOLDER = /\$\{PWD\}|\$PWD\b|\$\(\s*pwd\s*\)|`\s*pwd\s*`|(?<![^\s'"=:])~\+(?=[/\s'"]|$)/g;
/**
 * The home as the shell also spells it: `${HOME}` with any operator (`${HOME:-…}`, `${HOME-…}`,
 * `${HOME%…}`, `${HOME/#/}`), and `echo` or `printf` of `~` or `$HOME` in `$(…)` or backticks.
 */
const HOME_FOLDER =
  /\$\{HOME(?:[-:%#/+=?@^,][^}]*)?\}|\$\(\s*(?:echo|printf)\s+(?:~|"?\$HOME"?|"?\$\{HOME\}"?)\s*\)|`\s*(?:echo|printf)\s+(?:~|"?\$HOME"?|"?\$\{HOME\}"?)\s*`/g;
/**
 * `cd <folder>` / `pushd <folder>` (no folder: the home), also inside quotes (`sh -c 'cd ~ …'`)
 * and after options (`-P`, `--`): the relative paths after it are below it. The folder ends
 * at any space (a redirection or a comment may follow).
 */
const CHANGE_FOLDER =
  /(?:^|[\s;&|('"`])(?:cd|pushd)(?:[ \t]+(?:--|-[LPe@]+))*(?:[ \t]+([^\s;&|()<>]+))?(?=\s|$|[;&|()<>])/g;
/** A word a `cd` moves: one that is not absolute, an option, or spelled from `~` or a variable. */
const RELATIVE_WORD = /(^|[\s'"`;&|<>()=,+])([^\s'"`;&|<>()=,+\-~$/][^\s'"`;&|<>()=,+]*)/g;
/** `{a,b}` inside a word, as the shell expands it: read as a wildcard, so either branch is caught. */
const BRACE = /\{[^{}\s'"]*,[^{}\s'"]*\}/g;
/** A word of stars alone (a Markdown bullet, `rm *`) is not read as a glob: it names no folder. */
const STARS_ONLY = /^\*+$/;
const PERCENT = /%([0-9a-fA-F]{2})/g;
/** A word that is one file name: no separator, no glob, nothing the shell expands first. */
const PLAIN_NAME = /^[^/\\~$*?[]+$/;
/** A `..` segment: the system walks it from where a symlink before it leads. */
const DOT_DOT = /(^|\/)\.\.(\/|$)/;
/** What makes a path more than its letters: a glob, the home, a variable, a brace, a backslash. */
const SPELLED_PATH = /[~$*?[\]{}\\]/;
/** The letters of an option cluster an argument may be glued to (`-rt.agents`). */
const OPTION_LETTER = /[A-Za-z0-9]/;
const MAX_OPTION_LETTERS = 32;
/**
 * Glued spellings (`-rt<path>`) followed on disk in one call before it is refused unread: each
 * word tries up to `MAX_OPTION_LETTERS` of them, so without a bound a call of such words
 * would walk symlinks dozens of times per word.
 */
const MAX_GLUED_WALKS = 1024;
/** Past this many look-ups of a name in the project, its listing is read once instead. */
const MAX_NAME_LOOKUPS = 64;

/** `~/x`, `$HOME/x` and `${HOME}/x` as the shell expands them. */
function expandHome(word: string, home: string): string {
  if (word === "~") return home;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
  for (const prefix of ["~/", "$HOME/", "${HOME}/"]) {
    if (word.startsWith(prefix)) return path.join(home, word.slice(prefix.length));
  }
  return word;
}

/** `~<user>` for the user this runs as: the shell spells that user's home so too. */
function currentUserTilde(): RegExp | undefined {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    // no entry for this user: the shell could not expand `~<name>` either
    return undefined;
  }
  if (!name) return undefined;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![^\\s'"=:])~${escaped}(?=[/\\s'"]|$)`, "g");
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** `child` is `parent` or below it; both absolute and normalised (cheaper than path.relative). */
function under(child: string, parent: string): boolean {
  return (
    child === parent || (child.startsWith(parent) && child[parent.length] === path.sep) || parent === path.sep
  );
}

const segmentsOf = (p: string) => p.split(path.sep).filter((s) => s !== "");

interface Guarded {
  /** The root reported. */
  root: string;
  /** Lower-cased and absolute: the root itself (anything below it is refused). */
  key: string;
  /** Lower-cased: the folders above it, up to the project or home (naming one is refused). */
  above: string[];
}

/** `roots`: absolute folders to protect; `base`: what relative paths in arguments are relative to. */
export function protectedPaths(roots: readonly string[], base: string): ProtectedPaths {
  const home = os.homedir();
  const absolute = [...new Set(roots.map((r) => path.resolve(base, r)))];
  // The spellings a command line may use for each root: absolute, relative to the project, ~/…
  const spellings = new Map<string, string>();
  for (const root of absolute) {
    spellings.set(root, root);
    if (inside(root, base) && root !== base) spellings.set(path.relative(base, root), root);
    if (inside(root, home) && root !== home) spellings.set(`~/${path.relative(home, root)}`, root);
  }
  // Compared without case: on macOS and Windows `.Agents/Skills` is the same folder (and on
  // Linux refusing a write to a look-alike of a skill folder costs nothing).
  const forms = [...spellings.entries()].map(
    ([form, root]) => [form.split(path.sep).join("/").toLowerCase(), root] as const,
  );

  const guarded: Guarded[] = [];
  const addGuarded = (target: string, root: string) => {
    // The folders above it that belong to it: below the project (or home) it lives in.
    const anchor =
      inside(target, base) && target !== base
        ? base
        : inside(target, home) && target !== home
          ? home
          : path.dirname(target);
    const above: string[] = [];
    for (let dir = path.dirname(target); dir !== anchor && inside(dir, anchor); dir = path.dirname(dir)) {
      above.push(dir.toLowerCase());
    }
    guarded.push({ root, key: target.toLowerCase(), above });
  };
  for (const root of absolute) {
    addGuarded(root, root);
    // The same folder reached through a symlink in its own path (macOS's /tmp, a linked project).
    const real = realOf(root, new Map());
    if (real !== root) addGuarded(real, root);
  }

  const hitOf = (resolved: string): string | undefined => {
    const key = resolved.toLowerCase();
    for (const g of guarded) {
      if (under(key, g.key) || g.above.includes(key)) return g.root;
    }
    return undefined;
  };

  const globHitOf = (resolved: string): string | undefined => {
    const pattern = segmentsOf(resolved.toLowerCase());
    const prefixMatches = (target: string[]): "inside" | "equal" | "no" => {
      for (let i = 0; i < target.length; i++) {
        const part = pattern[i];
        if (part === undefined) return "no";
        if (part === "**") return "inside";
        if (!globSegmentMatches(part, target[i]!)) return "no";
      }
      return pattern.length === target.length ? "equal" : "inside";
    };
    for (const g of guarded) {
      if (prefixMatches(segmentsOf(g.key)) !== "no") return g.root;
      for (const dir of g.above) if (prefixMatches(segmentsOf(dir)) === "equal") return g.root;
    }
    return undefined;
  };

  // A plain name (most words of a command or a file) resolves to a child of the project: only
  // a protected folder that is one can be hit, so those are looked up by name.
  const lowerBase = base.toLowerCase();
  const children = new Map<string, string>();
  for (const g of guarded) {
    for (const dir of [g.key, ...g.above]) {
      if (path.dirname(dir) === lowerBase) children.set(path.basename(dir), g.root);
    }
  }

  const pathHit = (word: string, links: Map<string, string> | undefined): string | undefined => {
    if (PLAIN_NAME.test(word) && word !== "." && word !== "..") {
      const hit = children.get(word.toLowerCase());
      if (hit || !links) return hit;
      const resolved = path.join(base, word);
      const real = realOf(resolved, links);
      return real === resolved ? undefined : hitOf(real);
    }
    const resolved = path.resolve(base, expandHome(word, home));
    // A glob as the shell expands it; then as typed, since a tool that does not expand takes it literally.
    if (hasGlob(word) && !STARS_ONLY.test(word)) {
      const expanded = globHitOf(resolved);
      if (expanded) return expanded;
    }
    const hit = hitOf(resolved);
    // Longer than the system opens (PATH_MAX): no tool can write through it.
    if (hit || !links || resolved.length > MAX_SINGLE_PATH) return hit;
    if (DOT_DOT.test(word)) {
      const walked = physicalOf(path.resolve(base, "."), expandHome(word, home), links);
      if (walked !== resolved) {
        const through = hitOf(walked);
        if (through) return through;
      }
    }
    // A symlink already on disk (a cloned repository can carry one) may lead into a root.
    const real = realOf(resolved, links);
    return real === resolved ? undefined : hitOf(real);
  };

  // What one `find()` has spent on glued spellings: reset by each call (it runs to the end
  // before another can start).
  let gluedWalks = 0;
  let nameLookups = 0;
  let listing: Set<string> | undefined;
  /** A name in the project folder: only then can a relative path start with a symlink. */
  const presentInBase = (name: string): boolean => {
    if (!listing && ++nameLookups > MAX_NAME_LOOKUPS) {
      try {
        listing = new Set(readdirSync(base).map((n) => n.toLowerCase()));
      } catch {
        // an unreadable project: no name is known there, so none is followed
        listing = new Set();
      }
    }
    if (listing) return listing.has(name.toLowerCase());
    try {
      return lstatSync(path.join(base, name), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  };
  /** A glued argument that could lead through something on disk (absolute, `~`, `..`, or a name present). */
  const couldWalk = (suffix: string): boolean => {
    if (path.isAbsolute(suffix) || suffix.startsWith("~")) return true;
    const first = suffix.split("/", 1)[0]!;
    return first === "." || first === ".." || presentInBase(first);
  };

  const baseProtected = hitOf(base) !== undefined;

  // `-t.agents`, `-rt.agents`, `-C.agents`: an option's argument glued to its letter. Each
  // split is read as text; only one that could start on disk is walked, and only so many.
  const gluedHit = (word: string, links: Map<string, string> | undefined): string | undefined => {
    if (word.length < 3 || word[0] !== "-" || word[1] === "-") return undefined;
    // The splits differ only in their first segment; what follows it is the same for all.
    const slash = word.indexOf("/");
    const rest = slash < 0 ? "" : word.slice(slash);
    const restLeaves = DOT_DOT.test(rest);
    let restHit: string | undefined;
    let restRead = false;
    const leavingHit = () => {
      if (!restRead) {
        restRead = true;
        restHit = pathHit(`\u0000${rest}`, undefined);
      }
      return restHit;
    };
    for (let i = 1; i < word.length - 1 && i <= MAX_OPTION_LETTERS && OPTION_LETTER.test(word[i]!); i++) {
      const suffix = word.slice(i + 1);
      const first = slash < 0 ? suffix : word.slice(i + 1, slash);
      // A plain first segment that is no protected child keeps the path below it, unless a
      // `..` leaves it: then where it leads is the same for every split, so read once.
      const plainFirst =
        !baseProtected &&
        first !== "" &&
        first !== "." &&
        first !== ".." &&
        !SPELLED_PATH.test(suffix) &&
        !children.has(first.toLowerCase());
      const hit = plainFirst ? (restLeaves ? leavingHit() : undefined) : pathHit(suffix, undefined);
      if (hit) return hit;
      if (!links || !couldWalk(suffix)) continue;
      if (++gluedWalks > MAX_GLUED_WALKS) return absolute[0];
      const walked = pathHit(suffix, links);
      if (walked) return walked;
    }
    return undefined;
  };

  const baseSlashed = base.split(path.sep).join("/");
  const homeSlashed = home.split(path.sep).join("/");
  /** The working folder and the home put in where the shell would put them. */
  const userTilde = currentUserTilde();
  /** The home put in where the shell would put it. */
  const spelledHome = (text: string) => {
    const spelled = text.replace(HOME_FOLDER, homeSlashed);
    return userTilde ? spelled.replace(userTilde, homeSlashed) : spelled;
  };
  const spelledOut = (text: string) => spelledHome(text.replace(WORKING_FOLDER, baseSlashed));

  const checkWords = (text: string, links: Map<string, string> | undefined): string | undefined => {
    for (const word of text.split(WORD_BREAK)) {
      if (word === "") continue;
      const hit = pathHit(word, links) ?? gluedHit(word, links);
      if (hit) return hit;
      // Normalised, a word still spelling a root after an unknown prefix (`$D/.agents//skills`).
      if (word.includes("/")) {
        const normal = path.posix.normalize(word).toLowerCase();
        for (const [form, root] of forms) if (normal.includes(form)) return root;
      }
    }
    return undefined;
  };

  const checkText = (value: string, links: Map<string, string>): string | undefined => {
    const slashed = spelledOut(value.replace(/\\/g, "/"));
    const lower = slashed.toLowerCase();
    for (const [form, root] of forms) if (lower.includes(form)) return root;
    if (!value.includes("\n") && value.length < MAX_SINGLE_PATH) {
      const hit = pathHit(slashed, links);
      if (hit) return hit;
    }
    // A command line: each word that could be a path, resolved as the shell would spell it
    // out (`.agents//skills`, `a/../.agents/skills`, `$HOME/…`, a glob), not only as typed.
    // Symlinks are followed for command-sized strings; in a longer one (a file's content)
    // only on its first line, where a heredoc's command names its target.
    const long = slashed.length > MAX_LINKED_STRING;
    const hit = checkWords(slashed, long ? undefined : links);
    if (hit) return hit;
    if (long) {
      const end = slashed.indexOf("\n");
      const first = checkWords(slashed.slice(0, end < 0 ? slashed.length : end), links);
      if (first) return first;
    }
    const moved = checkAfterChangedFolder(value, long ? undefined : links);
    if (moved) return moved;
    if (slashed.includes("{")) {
      const braced = checkWords(slashed.replace(BRACE, "*"), undefined);
      if (braced) return braced;
      // Spelled out too: a wildcard does not match the leading dot a branch may give (`{.agents,x}`).
      for (const word of braceExpansions(slashed)) {
        const hit = checkWords(word, undefined);
        if (hit) return hit;
      }
    }
    return undefined;
  };

  // A relative path after `cd <folder>` is below that folder: read each such word from there.
  // `text` as typed (the working folder not yet spelled out: after a `cd` it is the new one).
  const changedFolderHit = (text: string, links: Map<string, string> | undefined): string | undefined => {
    const changes = [...text.matchAll(CHANGE_FOLDER)];
    // Each `cd` moves the text up to the next one, read from the project and from where the
    // `cd` before it led (`cd ..; cd home`): two more passes over the text, however many.
    let previous = base;
    for (let i = 0; i < changes.length; i++) {
      const m = changes[i]!;
      const target = spelledHome((m[1] ?? "~").replace(/['"]/g, ""));
      if (target.startsWith("-")) continue;
      const after = text.slice(m.index + m[0].length, changes[i + 1]?.index ?? text.length);
      const fromBase = path.resolve(base, expandHome(`${target.replace(WORKING_FOLDER, base)}/`, home));
      const chained = path.resolve(
        previous,
        expandHome(`${target.replace(WORKING_FOLDER, previous)}/`, home),
      );
      previous = chained;
      for (const folder of new Set([fromBase, chained])) {
        const slashed = folder.split(path.sep).join("/");
        const moved = spelledHome(after.replace(WORKING_FOLDER, slashed)).replace(
          RELATIVE_WORD,
          (_, before: string, word: string) => `${before}${slashed}/${word}`,
        );
        const hit = checkWords(moved, links);
        if (hit) return hit;
      }
    }
    return undefined;
  };

  // `value` as given; the `cd` is read in the words as typed, then as the shell joins and
  // expands them (`cd $H`, `my''-skills`, `{my-skills,x}`).
  const checkAfterChangedFolder = (
    value: string,
    links: Map<string, string> | undefined,
  ): string | undefined => {
    if (!value.includes("cd") && !value.includes("pushd")) return undefined;
    const typed = value.replace(/\\/g, "/");
    if (typed.search(CHANGE_FOLDER) < 0) return undefined;
    const hit = changedFolderHit(typed, links);
    if (hit) return hit;
    const spelled = braceExpandedText(shellJoinedText(value));
    return spelled === value ? undefined : changedFolderHit(spelled.replace(/\\/g, "/"), links);
  };

  // The words as the shell joins them (`.ag'ents'`, `$'\x2e…'`, `${D}nts`): symlinks
  // followed as for the text they came from.
  const checkJoined = (text: string, links: Map<string, string>): string | undefined => {
    const followed = text.length > MAX_LINKED_STRING ? undefined : links;
    for (const word of shellJoinedWords(text)) {
      const slashed = spelledOut(word);
      const lower = slashed.toLowerCase();
      for (const [form, root] of forms) if (lower.includes(form)) return root;
      const hit = checkWords(slashed, followed);
      if (hit) return hit;
    }
    return undefined;
  };

  const check = (text: string, links: Map<string, string>): string | undefined => {
    const hit = checkText(text, links) ?? checkJoined(text, links);
    if (hit || !text.includes("%")) return hit;
    // A tool that reads URLs or encoded names decodes `%2E`, `%2F`.
    return checkText(
      text.replace(PERCENT, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      links,
    );
  };

  return {
    find(input) {
      const links = new Map<string, string>();
      gluedWalks = 0;
      nameLookups = 0;
      listing = undefined;
      let leaves = 0;
      // Arguments too deep or too many to read are refused: what is not read is not let through.
      const unread = absolute[0];
      const visit = (value: unknown, depth: number): string | undefined => {
        if (typeof value === "string") {
          if (++leaves > MAX_LEAVES) return unread;
          return check(value, links);
        }
        if (value === null || typeof value !== "object") return undefined;
        if (depth >= MAX_DEPTH) return unread;
        if (Array.isArray(value)) {
          for (const item of value) {
            const hit = visit(item, depth + 1);
            if (hit) return hit;
          }
          return undefined;
        }
        // A key can be a path too: a tool writing several files takes a map of path to content.
        for (const [key, item] of Object.entries(value)) {
          const hit = visit(key, depth + 1) ?? visit(item, depth + 1);
          if (hit) return hit;
        }
        return undefined;
      };
      let value = input;
      if (typeof value === "string" && value.trim().startsWith("{")) {
        try {
          value = JSON.parse(value);
        } catch {
          // a plain string argument: checked as it is
        }
      }
      return visit(value, 0);
    },
  };
}

/** Symlinks followed for one path before giving up (a loop fails to open anyway). */
const MAX_LINKS = 40;

/**
 * `target` with every symlink on its way resolved, also a dangling one (writing through it
 * creates its target); the parts that do not exist yet are kept as they are. `known`
 * remembers answers within one call's check, so the words of a command share the walk.
 * `lstat` without throwing: an exception per missing file would cost more than the check.
 */
function realOf(target: string, known: Map<string, string>, hops = 0): string {
  const cached = known.get(target);
  if (cached !== undefined) return cached;
  const parent = path.dirname(target);
  const realParent = parent === target ? parent : realOf(parent, known, hops);
  let real = parent === target ? target : path.join(realParent, path.basename(target));
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(real, { throwIfNoEntry: false });
  } catch {
    // A file used as a folder, a NUL, a name too long: nothing can be written there.
    stat = undefined;
  }
  if (stat?.isSymbolicLink() && hops < MAX_LINKS) {
    try {
      real = realOf(path.resolve(realParent, readlinkSync(real)), known, hops + 1);
    } catch {
      // unreadable link: judged by its own path
    }
  }
  known.set(target, real);
  return real;
}

/**
 * `word` resolved from `base` as the system walks it: each `..` goes up from where the path
 * so far really is, so `link/..` is the folder above the link's target, not `base`.
 */
function physicalOf(base: string, word: string, known: Map<string, string>): string {
  let at = path.isAbsolute(word) ? path.parse(word).root : base;
  for (const part of word.split("/")) {
    if (part === "" || part === ".") continue;
    at = part === ".." ? path.dirname(realOf(at, known)) : path.join(at, part);
  }
  return realOf(at, known);
}

/** The first file path in a read tool's arguments (`path`, `file_path`, `filePath`, `file`). */
export function readPath(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return typeof input === "string" ? input : undefined;
  const record = input as Record<string, unknown>;
  for (const key of ["path", "file_path", "filePath", "file", "filename"]) {
    const value = record[key];
    if (typeof value === "string" && value) return value;
  }
  return undefined;
}
