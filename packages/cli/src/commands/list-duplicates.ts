/**
 * `skillshelf list --group-duplicates`: the names more than one file defines, most files
 * first, each with the file that is used and the ones that are not. For shelves built from
 * registries, where one name (`code-review`) can have hundreds of copies.
 */
import type { LoadSkillsResult, OverrideReason, Scope } from "@skillshelf/core";
import type { CommandContext } from "../context.js";
import { displayPath, plural } from "./format-diagnostics.js";

export interface DuplicateGroup {
  name: string;
  /** The file the shelf uses for the name. */
  used: { file: string; scope: Scope };
  /** Every file of the name, the used one included. */
  files: number;
  /** The others, in resolution order. */
  ignored: Array<{ file: string; scope: Scope; reason: OverrideReason }>;
}

/** Ignored copies listed per name in the human listing; `--json` lists them all. */
const SHOWN_PER_NAME = 3;

/** One pass over the overridden files: the names with more than one file, most files first. */
export function duplicateGroups(result: LoadSkillsResult): DuplicateGroup[] {
  const usedByName = new Map(result.skills.map((skill) => [skill.name, skill]));
  const groups = new Map<string, DuplicateGroup>();
  for (const o of result.overridden) {
    let group = groups.get(o.name);
    if (group === undefined) {
      const used = usedByName.get(o.name);
      group = {
        name: o.name,
        used: used ? { file: used.file, scope: used.scope } : { file: o.by, scope: o.byScope },
        files: 1,
        ignored: [],
      };
      groups.set(o.name, group);
    }
    group.files++;
    group.ignored.push({ file: o.file, scope: o.scope, reason: o.reason });
  }
  return [...groups.values()].sort(
    (a, b) => b.files - a.files || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

export function formatDuplicateGroups(result: LoadSkillsResult, ctx: CommandContext): string {
  const c = ctx.color;
  const groups = duplicateGroups(result);
  const lines: string[] = [];
  let ignored = 0;
  for (const group of groups) {
    ignored += group.ignored.length;
    lines.push(
      `${c.bold(group.name)}  ${plural(group.files, "file")}; used: ${group.used.scope} ${displayPath(group.used.file, ctx)}`,
    );
    for (const o of group.ignored.slice(0, SHOWN_PER_NAME)) {
      lines.push(
        c.dim(
          `    ${o.reason === "role-shadowed" ? "refused (a role)" : "ignored"} ${o.scope} ${displayPath(o.file, ctx)}`,
        ),
      );
    }
    const more = group.ignored.length - SHOWN_PER_NAME;
    if (more > 0) lines.push(c.dim(`    … and ${more} more (--json lists them all)`));
  }
  lines.push(
    `${groups.length > 0 ? "\n" : ""}${plural(groups.length, "name")} defined by more than one file; ${plural(ignored, "file")} not used.`,
  );
  return `${lines.join("\n")}\n`;
}
