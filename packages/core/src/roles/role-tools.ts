/**
 * Which of the host's tools a role's sub-agent gets: its whitelist resolved against them,
 * never the delegation tool itself (so sub-agents don't recurse).
 */
import type { ToolAliases } from "../policy/aliases.js";
import { resolveAllowedTools } from "../policy/tool-policy.js";
import type { Diagnostic, Role } from "../types.js";

export const DELEGATE_TOOL = "delegate";

/** The names the delegation tool may take, preferred first. */
export function delegationToolNames(name: string): string[] {
  return [name, `skillshelf_${name}`, `${name}_role`, `${name}_to_role`];
}

export interface RoleToolsOptions {
  toolAliases?: ToolAliases;
  /** Host tools a sub-agent never gets, whatever its whitelist (default: the delegation tool under any of its names, so sub-agents don't recurse). */
  exclude?: readonly string[];
}

/** Of the host's tools, those a role may use, plus an `unknown-tool` warning per whitelist entry that matches none. */
export function resolveRoleTools(
  role: Role,
  tools: readonly string[],
  options: RoleToolsOptions = {},
): { tools: string[]; diagnostics: Diagnostic[] } {
  const exclude = new Set(options.exclude ?? delegationToolNames(DELEGATE_TOOL));
  const candidates = tools.filter((t) => !exclude.has(t));
  return resolveAllowedTools(role.allowedTools, candidates, {
    toolAliases: options.toolAliases,
    disallowed: role.disallowedTools,
    owner: { name: role.name, file: role.file },
  });
}
