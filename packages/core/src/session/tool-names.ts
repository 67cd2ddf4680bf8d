/**
 * Activation tool names in a host: never the name of one of the host's own tools. A host
 * tool `skill_pdf` stays the host's (its calls run the host tool, its history entries are not
 * replayed as activations) and skill `pdf` is offered under its next deterministic name;
 * likewise `activate_skill`. The same resolution answers "which tool is this call?" on the
 * way back, so what was offered is what is understood.
 */
import type { Diagnostic } from "../types.js";
import {
  ACTIVATE_SKILL_TOOL_NAMES,
  END_SKILL_TOOL_NAMES,
  READ_SKILL_FILE_TOOL_NAMES,
  RUN_SKILL_SCRIPT_TOOL_NAMES,
  SKILL_TOOL_PREFIX,
  skillToolNames,
  type ToolNameIndex,
} from "./activation-tools.js";

export interface ActivationToolNames {
  /** The tool offered for a skill; undefined when every form of its name is a host tool. */
  toolName(skillName: string): string | undefined;
  /** The skill a tool call activates; undefined for a host tool or an unknown name. */
  skillName(toolName: string): string | undefined;
  /** The name `activate_skill` is offered under (undefined when every form is a host tool). */
  readonly generic: string | undefined;
  /** Is this a call to the generic activation tool? */
  isGeneric(toolName: string): boolean;
  /** The name the end tool is offered under (undefined when every form is a host tool). */
  readonly end: string | undefined;
  isEnd(toolName: string): boolean;
  /** The confined reader's name (undefined when every form is a host tool). */
  readonly read: string | undefined;
  isRead(toolName: string): boolean;
  /** The script runner's name (undefined when every form is a host tool). */
  readonly script: string | undefined;
  isScript(toolName: string): boolean;
  /** `tool-name-clash` warnings: each activation tool that had to give way to a host tool. */
  readonly diagnostics: readonly Diagnostic[];
}

const NO_HOST_TOOLS: ReadonlySet<string> = new Set();

/**
 * Resolve the activation tool names of a skill list (`index`) against the host's tools.
 * Only skills the model may be offered (`offerable`) are renamed and reported: a host tool
 * named after a role's tool simply stays the host's. `fileOf` locates a SKILL.md for the
 * diagnostic.
 */
export function resolveActivationToolNames(
  index: ToolNameIndex,
  hostTools: ReadonlySet<string> = NO_HOST_TOOLS,
  offerable: (skillName: string) => boolean = () => true,
  fileOf: (skillName: string) => string | undefined = () => undefined,
): ActivationToolNames {
  const diagnostics: Diagnostic[] = [];
  const renamed = new Map<string, string | undefined>();
  const taken = (tool: string) => hostTools.has(tool) || index.ownerOf(tool) !== undefined;

  for (const host of hostTools) {
    if (!host.startsWith(SKILL_TOOL_PREFIX)) continue;
    const owner = index.ownerOf(host);
    if (owner === undefined || renamed.has(owner) || !offerable(owner)) continue;
    const used = new Set([...renamed.values()]);
    const next = skillToolNames(owner).find((tool) => !taken(tool) && !used.has(tool));
    renamed.set(owner, next);
    diagnostics.push(
      clash(
        host,
        `skill "${owner}"`,
        next,
        fileOf(owner) ?? "",
        next ? undefined : `skill "${owner}" can only be reached through activate_skill`,
      ),
    );
  }

  const generic = ACTIVATE_SKILL_TOOL_NAMES.find((tool) => !hostTools.has(tool));
  if (generic !== ACTIVATE_SKILL_TOOL_NAMES[0]) {
    diagnostics.push(
      clash(
        ACTIVATE_SKILL_TOOL_NAMES[0]!,
        "the generic skill activation tool",
        generic,
        "",
        generic ? undefined : "skills outside the top candidates cannot be activated by the model",
      ),
    );
  }

  const end = END_SKILL_TOOL_NAMES.find((tool) => !hostTools.has(tool));
  const ours = (names: readonly string[]) => (toolName: string) =>
    !hostTools.has(toolName) && names.includes(toolName);
  return {
    end,
    isEnd: ours(END_SKILL_TOOL_NAMES),
    read: READ_SKILL_FILE_TOOL_NAMES.find((tool) => !hostTools.has(tool)),
    isRead: ours(READ_SKILL_FILE_TOOL_NAMES),
    script: RUN_SKILL_SCRIPT_TOOL_NAMES.find((tool) => !hostTools.has(tool)),
    isScript: ours(RUN_SKILL_SCRIPT_TOOL_NAMES),
    toolName: (skillName) => (renamed.has(skillName) ? renamed.get(skillName) : index.toolName(skillName)),
    skillName: (toolName) => (hostTools.has(toolName) ? undefined : index.skillName(toolName)),
    generic,
    isGeneric: (toolName) => !hostTools.has(toolName) && ACTIVATE_SKILL_TOOL_NAMES.includes(toolName),
    diagnostics,
  };
}

function clash(
  host: string,
  what: string,
  instead: string | undefined,
  file: string,
  consequence: string | undefined,
): Diagnostic {
  return {
    severity: "warning",
    code: "tool-name-clash",
    message: instead
      ? `The host has a tool named "${host}", the name of ${what}: the host's tool keeps it and skillshelf offers ${what} as "${instead}".`
      : `The host has tools with every name ${what} could take ("${host}", …): it is not offered (${consequence}).`,
    file,
    line: 1,
    hint: `Nothing breaks, but the model sees two similar names: rename the host tool "${host}" if you can. Pass the host's tools when you open a session (shelf.openSession({ tools }) or shelf.session({ tools })) so calls in a rebuilt session resolve the same way.`,
  };
}

/**
 * The `skill_<name>` tools among the tool names a conversation's history called that resolve
 * to a skill here (a host's own tool of that name excluded), once each. A model may call such
 * a tool again in a later request, when no step offers it: a framework that was never told
 * the name answers with its own unknown-tool text, so a plan lists these among the tools it
 * does not offer (`plan.unoffered`), for the adapter to register hidden and core to answer.
 */
export function calledSkillTools(calledNames: ReadonlySet<string>, names: ActivationToolNames): string[] {
  const tools: string[] = [];
  for (const name of calledNames) {
    if (names.isGeneric(name)) continue;
    if (names.skillName(name) !== undefined) tools.push(name);
  }
  return tools;
}
