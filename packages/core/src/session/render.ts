/**
 * What the model reads of active skills: each body in a `<skill_content>` block, the date,
 * and the tools it may use. A skill file, a resource name or the model's own arguments must
 * never be able to close or forge that framing, so everything inside is escaped.
 */
import { recordedArguments } from "../parameters/validate-arguments.js";
import type { ActiveSkill, Skill } from "../types.js";
import { skillResources } from "./resources.js";
import { currentDateLine, substituteArguments } from "./substitute.js";

/** Longest argument string an activation takes (a megabyte of "args" is an attack, not a request). */
export const MAX_ARGS_LENGTH = 4_000;

export function escapeAttribute(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/[\r\n]/g, " ");
}

/** Text inside a framing block: only our own tags are neutralised, so Markdown and code stay readable. */
export function escapeFraming(text: string): string {
  return text.replace(/<(\/?\s*skill[_-])/gi, "&lt;$1");
}

/** One line per resource name, whatever bytes the file name has. */
function resourceLine(name: string): string {
  return escapeFraming(name.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, "?"));
}

export function takesPositionalArguments(skill: Skill): boolean {
  return Boolean(skill.argumentHint) || skill.arguments.length > 0 || skill.body.includes("$ARGUMENTS");
}

export function instructionsOf(skill: Skill, entry: Pick<ActiveSkill, "args">): string {
  const values = recordedArguments(skill, entry.args);
  return escapeFraming(
    substituteArguments(skill.body, {
      args: entry.args,
      argumentNames: skill.arguments,
      values,
      skillDir: skill.dir,
      // Typed arguments are named: `$1` in such a body is text (a price), not a position.
      positional: values === undefined && takesPositionalArguments(skill),
    }).trim(),
  );
}

/**
 * Rendered blocks by skill and arguments, shared by every session: a long body is not
 * re-substituted at every step. A loaded skill object never changes (a new version is a new
 * object), and a block depends only on it, its arguments and its folder's files.
 */
const blocks = new WeakMap<Skill, Map<string, string>>();

export function skillBlock(skill: Skill, entry: Pick<ActiveSkill, "args">): string {
  let byArgs = blocks.get(skill);
  if (!byArgs) {
    byArgs = new Map();
    blocks.set(skill, byArgs);
  }
  const key = entry.args ?? "";
  let block = byArgs.get(key);
  if (block === undefined) {
    const resources = skillResources(skill);
    const lines = [`<skill_content name="${escapeAttribute(skill.name)}">`, instructionsOf(skill, entry)];
    if (resources.length > 0) {
      lines.push(
        `<skill_resources dir="${escapeAttribute(skill.dir ?? "")}">`,
        ...resources.map(resourceLine),
        "</skill_resources>",
      );
    }
    lines.push("</skill_content>");
    block = lines.join("\n");
    if (byArgs.size >= 16) byArgs.clear();
    byArgs.set(key, block);
  }
  return block;
}

export function toolList(names: readonly string[], max = 20): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown}, … (${names.length - max} more)` : shown;
}

/** The active skills' section of the system text. `allowed` is undefined when nothing restricts. */
export function activeSection(
  entries: ReadonlyArray<{ skill: Skill; entry: ActiveSkill }>,
  now: Date,
  timeZone: string | undefined,
  allowed: readonly string[] | undefined,
  endTool: string | undefined,
): string {
  const running = entries.filter((e) => !e.entry.finished);
  const finished = entries.filter((e) => e.entry.finished);
  const parts: string[] = [];
  if (running.length > 0) {
    const head = [
      `Active skills (${running.length}): follow their instructions for the current task.`,
      currentDateLine(now, timeZone),
    ];
    if (endTool) head.push(`When a skill's task is done, call ${endTool} to end it.`);
    parts.push(head.join("\n"), ...running.map((e) => skillBlock(e.skill, e.entry)));
  }
  if (finished.length > 0) {
    parts.push(
      `You ended ${finished.map((e) => `"${e.skill.name}"`).join(", ")}: ${
        finished.length === 1 ? "its" : "their"
      } tool limits hold until the user's next message.`,
    );
  }
  if (parts.length === 0) return "";
  if (allowed) {
    parts.push(
      allowed.length > 0
        ? `While these skills are active you may use only these tools: ${allowed.join(", ")} (and the skill tools).`
        : "While these skills are active you may use no tools except the skill tools.",
    );
  }
  return parts.join("\n\n");
}
