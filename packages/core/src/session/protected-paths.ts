/**
 * Skill files are the whitelist's source, so a model must not be able to edit its way out
 * of a restriction (rewrite, delete, shadow or add a SKILL.md) or into the next
 * conversation's prompt. A guarded tool call whose arguments point into a skill root or
 * skillshelf's state folder is refused, unless the tool only reads.
 *
 * This looks at arguments, not at what a tool does: it catches paths and shell commands that
 * name those folders, not a program that computes the path at run time. It is a tripwire
 * for a model that edits files, not a sandbox (SECURITY.md says so).
 */
import os from "node:os";
import path from "node:path";

const MAX_DEPTH = 6;
const MAX_LEAVES = 256;
const MAX_STRING = 16_384;

export interface ProtectedPaths {
  /** The protected folder a call's arguments point into, if any. */
  find(input: unknown): string | undefined;
}

/** What separates the words of a command line that could each be a path. */
const WORD_BREAK = /[\s'"`;&|<>()=,]+/;
const MAX_WORDS = 512;

/** `~/x`, `$HOME/x` and `${HOME}/x` as the shell expands them. */
function expandHome(word: string, home: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
  for (const prefix of ["~/", "$HOME/", "${HOME}/"]) {
    if (word.startsWith(prefix)) return path.join(home, word.slice(prefix.length));
  }
  return word;
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
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
  const folded = absolute.map((root) => [root.toLowerCase(), root] as const);

  const rootOf = (word: string): string | undefined => {
    const resolved = path.resolve(base, expandHome(word, home)).toLowerCase();
    for (const [key, root] of folded) if (inside(resolved, key)) return root;
    return undefined;
  };

  const check = (text: string): string | undefined => {
    const value = text.length > MAX_STRING ? text.slice(0, MAX_STRING) : text;
    const slashed = value.replace(/\\/g, "/");
    const lower = slashed.toLowerCase();
    for (const [form, root] of forms) if (lower.includes(form)) return root;
    if (!value.includes("\n") && value.length < 4096) {
      const hit = rootOf(value);
      if (hit) return hit;
    }
    // A command line: each word that could be a path, resolved as the shell would spell it
    // out (`.agents//skills`, `a/../.agents/skills`, `$HOME/…`), not only as typed.
    let words = 0;
    for (const word of slashed.split(WORD_BREAK)) {
      if (!word.includes("/") || ++words > MAX_WORDS) continue;
      const hit = rootOf(word);
      if (hit) return hit;
    }
    return undefined;
  };

  return {
    find(input) {
      let leaves = 0;
      const visit = (value: unknown, depth: number): string | undefined => {
        if (typeof value === "string") {
          leaves++;
          return check(value);
        }
        if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return undefined;
        for (const item of Array.isArray(value) ? value : Object.values(value)) {
          if (leaves >= MAX_LEAVES) return undefined;
          const hit = visit(item, depth + 1);
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
