/**
 * Claude Code permission specifiers on shell entries, enforced: `Bash(git:*)` admits the
 * host's shell tool only for a call whose command is `git` or starts with `git `;
 * `Bash(npm run test)` only for exactly that command; `Bash(git diff *)` for commands the
 * `*`s (any text) make up.
 *
 * A prefix only bounds what runs if the command is one simple command, so a command with a
 * shell control operator, a substitution or a redirection is refused whatever its prefix
 * (`git status; rm -rf ~`). Quoted operators are refused too: reading shell quoting right is
 * the shell's job, and a false refusal costs less than a false admission.
 */

/** `;` `&` `|` (and `&&`, `||`), backticks, `$(`, `${`, redirections, line breaks, NUL. */
const SHELL_OPERATOR = /[;&|`<>\n\r\0]|\$[({]/;

/** Where a shell tool's arguments carry the command. */
const COMMAND_FIELDS = ["command", "cmd", "script", "commandLine"] as const;

/** Arguments that change what runs beyond the command string, which the pattern cannot judge. */
const EXTENDING_FIELDS = ["args", "argv", "arguments", "env"] as const;

export interface CommandPattern {
  /** The specifier as written (`git:*`). */
  readonly source: string;
  /** As the model is told it: `git …`, `npm run test`, `git diff *`. */
  readonly shown: string;
  matches(command: string): boolean;
}

export type CommandOfCall = { ok: true; command: string } | { ok: false; problem: string };

/** Trimmed, runs of spaces and tabs as one space: how patterns and commands are compared. */
function normalize(text: string): string {
  return text.trim().replace(/[ \t]+/g, " ");
}

export function compileCommandPattern(specifier: string): CommandPattern {
  const source = specifier;
  const text = normalize(specifier);
  if (text.endsWith(":*")) {
    const prefix = normalize(text.slice(0, -2));
    return {
      source,
      shown: prefix === "" ? "…" : `${prefix} …`,
      matches: (command) => prefix === "" || command === prefix || command.startsWith(`${prefix} `),
    };
  }
  if (text.includes("*")) {
    const parts = text.split("*");
    return { source, shown: text, matches: (command) => wildcardMatch(parts, command) };
  }
  return { source, shown: text, matches: (command) => command === text };
}

/** `parts` joined by `*`s (each any text) equals `text`: greedy, linear in practice, no regex. */
function wildcardMatch(parts: readonly string[], text: string): boolean {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let pos = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = text.indexOf(parts[i]!, pos);
    if (found === -1) return false;
    pos = found + parts[i]!.length;
  }
  return text.length - last.length >= pos && text.endsWith(last);
}

/**
 * The command a tool call would run, or why there is none a pattern can vouch for: no
 * command string, several that differ, arguments that extend it, or a shell operator.
 */
export function commandOfCall(input: unknown): CommandOfCall {
  let command: string | undefined;
  if (typeof input === "string") command = input;
  else if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const args = input as Record<string, unknown>;
    for (const field of COMMAND_FIELDS) {
      if (!Object.hasOwn(args, field) || args[field] === undefined) continue;
      const value = args[field];
      if (typeof value !== "string")
        return { ok: false, problem: `its \`${field}\` argument is not a string` };
      if (command !== undefined && normalize(value) !== normalize(command)) {
        return { ok: false, problem: "it carries more than one command" };
      }
      command = value;
    }
    for (const field of EXTENDING_FIELDS) {
      if (Object.hasOwn(args, field) && !isEmpty(args[field])) {
        return {
          ok: false,
          problem: `its \`${field}\` argument changes what runs, which the allowed commands cannot vouch for`,
        };
      }
    }
  }
  if (command === undefined || command.trim() === "") {
    return { ok: false, problem: `it has no command string (${COMMAND_FIELDS.join(", ")})` };
  }
  const operator = SHELL_OPERATOR.exec(command);
  if (operator) {
    const shown = JSON.stringify(operator[0]);
    return {
      ok: false,
      problem: `the command contains ${shown}: only one simple command is allowed (no ;, &&, ||, |, &, redirections, backticks or $(…))`,
    };
  }
  return { ok: true, command: normalize(command) };
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}
