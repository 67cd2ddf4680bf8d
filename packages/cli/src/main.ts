import type { CommandContext } from "./context.js";
import { createContext } from "./context.js";
import { asksVersion, CLI_VERSION } from "./version.js";

/** A command: parses its own arguments, prints, returns the exit code. */
export type Command = (args: string[], ctx: CommandContext) => Promise<number>;

// One file per command; loaded lazily so `skillshelf validate` never pays for the others.
const commands: Record<string, { summary: string; load: () => Promise<{ run: Command }> }> = {
  validate: { summary: "check SKILL.md files (any depth)", load: () => import("./commands/validate.js") },
  add: {
    summary: "install skills from a folder, git repository or npm package",
    load: () => import("./commands/add.js"),
  },
  remove: { summary: "remove a skill 'add' installed", load: () => import("./commands/remove.js") },
  update: {
    summary: "fetch installed skills again; show and apply what changed",
    load: () => import("./commands/update.js"),
  },
  disable: { summary: "turn skills off without deleting them", load: () => import("./commands/disable.js") },
  enable: {
    summary: "turn disabled skills back on",
    load: async () => ({ run: (await import("./commands/disable.js")).runEnable }),
  },
  init: { summary: "scaffold a new skill with guidance", load: () => import("./commands/init.js") },
  lint: {
    summary: "description quality, overlaps, generic triggers",
    load: () => import("./commands/lint.js"),
  },
  list: {
    summary: "resolved skills with scope, file and shadowing",
    load: () => import("./commands/list.js"),
  },
  match: { summary: "stage-1 candidates for a message", load: () => import("./commands/match.js") },
  build: {
    summary: "write a prebuilt shelf for fast, read-only start-up",
    load: () => import("./commands/build.js"),
  },
  catalog: { summary: "the exact system text the model sees", load: () => import("./commands/catalog.js") },
  eval: { summary: "routing quality on a cases.jsonl file", load: () => import("./commands/eval.js") },
  stats: { summary: "usage, zero-use skills, blocked calls", load: () => import("./commands/stats.js") },
  history: { summary: "kept versions of a skill", load: () => import("./commands/history.js") },
  diff: { summary: "unified diff between two versions", load: () => import("./commands/diff.js") },
  rollback: { summary: "restore a kept version", load: () => import("./commands/rollback.js") },
  trust: {
    summary: "trust a project's skill folders (--list, --revoke)",
    load: () => import("./commands/trust.js"),
  },
  improve: {
    summary: "list|show|accept|reject improvement proposals",
    load: () => import("./commands/improve.js"),
  },
  studio: {
    summary: "a local web page: shelf, match explorer, improvements, history",
    load: () => import("./studio/command.js"),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: skillshelf <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun 'skillshelf <command> --help' for a command's options; --version prints the version.\n`;
}

export async function main(argv: string[], ctx: CommandContext = createContext()): Promise<number> {
  const [name, ...rest] = argv;
  // Anywhere before `--`, for every command: the one answer that needs no valid arguments.
  if (asksVersion(argv)) {
    ctx.out(`${CLI_VERSION}\n`);
    return 0;
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    ctx.out(usage());
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    ctx.err(`skillshelf: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const { run } = await command.load();
  return run(rest, ctx);
}
