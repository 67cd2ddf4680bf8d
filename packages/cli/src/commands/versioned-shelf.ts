/**
 * What `history`, `diff`, `rollback` and `improve` share: the shelf options (the same
 * folders `list` reads), opening a shelf, and turning a refused write or decision into a
 * one-line message and exit status 1 (usage errors are 2).
 */
import type { ParseArgsConfig } from "node:util";
import { ImproveError, type Shelf, SkillWriteError } from "@skillshelf/core";
import type { CommandContext } from "../context.js";
import { openShelf, SHELF_OPTIONS, type ShelfArgs } from "./runtime-shelf.js";

const { "min-score": _minScore, ...options } = SHELF_OPTIONS;
export const VERSIONED_OPTIONS = options satisfies ParseArgsConfig["options"];

export const VERSIONED_HELP = `  --root DIR         project root (default: the current folder)
  --project DIR      a project skill folder holding <name>/SKILL.md; repeatable, replaces
                     .skillshelf/skills and .agents/skills under the root
  --user DIR         a user skill folder; repeatable, replaces ~/.skillshelf/skills and
                     ~/.agents/skills
  --claude           also read .claude/skills
  --state-dir DIR    skillshelf's state folder: history, ledger, proposals
                     (default <root>/.skillshelf)`;

/** Opens the shelf, runs `task`, closes it; refused operations print their message and return 1. */
export async function withShelf(
  command: string,
  values: ShelfArgs,
  ctx: CommandContext,
  task: (shelf: Shelf) => Promise<number>,
): Promise<number> {
  const shelf = await openShelf(values, ctx);
  if (typeof shelf === "string") {
    ctx.err(`skillshelf ${command}: ${shelf}\n`);
    return 2;
  }
  try {
    return await task(shelf);
  } catch (error) {
    if (error instanceof SkillWriteError || error instanceof ImproveError) {
      ctx.err(`skillshelf ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await shelf.close();
  }
}

/** `2026-11-30 04:07:15` in UTC: short, sortable, unambiguous. */
export function formatTime(iso: string | undefined): string {
  return iso ? iso.replace("T", " ").slice(0, 19) : "";
}

/** A unified diff with - and + lines coloured (when colour is on). */
export function colorDiff(patch: string, ctx: CommandContext): string {
  const c = ctx.color;
  return patch
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
      if (line.startsWith("@@")) return c.cyan(line);
      if (line.startsWith("+")) return c.green(line);
      if (line.startsWith("-")) return c.red(line);
      return line;
    })
    .join("\n");
}
