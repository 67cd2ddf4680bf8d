/**
 * A skill's tools as a dependency: a skill whose `allowed-tools` admit none of the host's
 * tools (after aliases) could do nothing once active, so it is not offered to the model —
 * still loaded, still runnable by "/name", and a plan diagnostic names what is missing.
 * Judged per skill list, host tool set and alias map, so 10,000 skills cost one pass.
 */
import type { ToolAliases } from "../policy/aliases.js";
import { createToolPolicy } from "../policy/tool-policy.js";
import type { Diagnostic, Skill } from "../types.js";

export interface MissingTools {
  /** Skills none of whose whitelisted tools the host has, by name. */
  unusable: ReadonlySet<string>;
  /** One `missing-tools` diagnostic per skill with a whitelisted tool the host lacks. */
  diagnostics: readonly Diagnostic[];
}

const NONE: MissingTools = { unusable: new Set(), diagnostics: [] };
const cache = new WeakMap<readonly Skill[], Map<string, MissingTools>>();
const aliasIds = new WeakMap<ToolAliases, number>();
let nextAliasId = 0;

function aliasId(aliases: ToolAliases): number {
  let id = aliasIds.get(aliases);
  if (id === undefined) {
    id = nextAliasId++;
    aliasIds.set(aliases, id);
  }
  return id;
}

/** What the host lacks of each offerable skill's whitelist. Nothing when the host named no tools. */
export function missingTools(
  list: readonly Skill[],
  offerable: readonly Skill[],
  hostTools: readonly string[],
  aliases: ToolAliases,
): MissingTools {
  if (hostTools.length === 0) return NONE;
  let byKey = cache.get(list);
  if (!byKey) {
    byKey = new Map();
    cache.set(list, byKey);
  }
  // The same tools in another order are the same host.
  const key = `${aliasId(aliases)}\u0001${[...hostTools].sort().join("\u0000")}`;
  let found = byKey.get(key);
  if (found) return found;
  const unusable = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  // What a skill lacks depends on its allowed and disallowed tools alone (the host and the
  // aliases are this call's): many skills share them, and a policy compiled per skill was most
  // of the pass.
  const judged = new Map<string, { entries: string[]; hint: string | undefined; none: boolean }>();
  for (const skill of offerable) {
    // No whitelist needs nothing; an empty one (`allowed-tools: []`) needs no tool either.
    if (!skill.allowedTools || skill.allowedTools.length === 0) continue;
    const lists = JSON.stringify([skill.allowedTools, skill.disallowedTools]);
    let verdict = judged.get(lists);
    if (!verdict) {
      const policy = createToolPolicy([skill], { toolAliases: aliases });
      const unknown = policy.unknownTools(hostTools);
      verdict = {
        entries: unknown.map((d) => /allows "(.*)", which/.exec(d.message)?.[1] ?? d.message),
        hint: unknown[0]?.hint,
        none: unknown.length > 0 && policy.allowedTools(hostTools).length === 0,
      };
      judged.set(lists, verdict);
    }
    const { entries, hint, none } = verdict;
    if (entries.length === 0) continue;
    if (none) unusable.add(skill.name);
    diagnostics.push({
      severity: none ? "warning" : "info",
      code: "missing-tools",
      message: `Skill "${skill.name}" needs ${entries.map((e) => `"${e}"`).join(", ")}, which the host does not have${
        none
          ? ": none of its tools exist, so it is not offered to the model (the user can still run it by /name)"
          : ""
      }.`,
      file: skill.file,
      line: 1,
      hint: hint ?? "Register the tools with the host, or map the names with toolAliases.",
    });
  }
  found = { unusable, diagnostics };
  if (byKey.size >= 16) byKey.clear();
  byKey.set(key, found);
  return found;
}

/** Per `MissingTools`, where each file's diagnostics are in its list (made on first use). */
const positions = new WeakMap<MissingTools, Map<string | undefined, number[]>>();

/**
 * The diagnostics of `missing` about these files, in their order in the list: a plan asks for
 * the few skills it matched, and filtering the whole list per plan cost a lookup per skill
 * the host lacks tools for.
 */
export function missingToolsOf(missing: MissingTools, files: Iterable<string | undefined>): Diagnostic[] {
  let byFile = positions.get(missing);
  if (!byFile) {
    byFile = new Map();
    missing.diagnostics.forEach((d, i) => {
      const list = byFile!.get(d.file);
      if (list) list.push(i);
      else byFile!.set(d.file, [i]);
    });
    positions.set(missing, byFile);
  }
  const at: number[] = [];
  for (const file of new Set(files)) at.push(...(byFile.get(file) ?? []));
  return at.sort((a, b) => a - b).map((i) => missing.diagnostics[i] as Diagnostic);
}
