/**
 * Every sentence skillshelf says to the model about skills, in one place: refusals,
 * the notes a turn leaves in the system text, and what a blocked tool call reads. Each one
 * tells the model what to do next (seed 001: a structured result with a way forward).
 */
import type { EndedSkill, Skill, Vetoed } from "../types.js";
import type { Refusal } from "./command-note.js";
import { toolList } from "./render.js";

type Why = Pick<Refusal, "error_type" | "message">;

export function notFoundForUser(command: string, requested: string, offer: string): Why {
  return {
    error_type: "NOT_FOUND",
    message: `The user typed "${command}", but there is no skill named "${requested}", so nothing was loaded. Tell the user the command did not run and that ${offer}. If "/${requested}" was not meant as a skill command, answer the message as usual.`,
  };
}

export function notFoundForModel(requested: string, offerable: readonly string[]): Why {
  return {
    error_type: "NOT_FOUND",
    message:
      `There is no skill named "${requested}". Skills you can activate: ${toolList(offerable)}. ` +
      "Use one of these exact names, or continue without a skill.",
  };
}

export function roleForModel(name: string): Why {
  return {
    error_type: "MODEL_INVOCATION_DISABLED",
    message: `"${name}" is a sub-agent role, not a skill to activate here. Delegate the task to it with the delegation tool if one is offered; otherwise continue without it.`,
  };
}

export function userOnly(skill: Skill): Why {
  return {
    error_type: "MODEL_INVOCATION_DISABLED",
    message: `Skill "${skill.name}" runs only when the user asks for it. Do not start it or do its task yourself; if it seems needed, tell the user they can run it by typing /${skill.name}${skill.argumentHint ? ` ${skill.argumentHint}` : ""}.`,
  };
}

export function userForkDone(skill: Skill): Why {
  return {
    error_type: "MODEL_INVOCATION_DISABLED",
    message: `Skill "${skill.name}" runs only when the user asks for it, and it already ran for their /${skill.name} in this turn: do not start it again. Answer the user from its result; they can type /${skill.name} to run it again.`,
  };
}

export function userOnlyAgent(skill: string, role: string): Why {
  return {
    error_type: "MODEL_INVOCATION_DISABLED",
    message: `Skill "${skill}" runs as the ${role} role, which the model does not start (its file says disable-model-invocation). Do the task without it; the user can type /${skill} to run it.`,
  };
}

export function roleForUser(command: string, name: string, args: string | undefined): Why {
  return {
    error_type: "NOT_USER_INVOCABLE",
    message: `The user typed "${command}", but "${name}" is a sub-agent role, not a skill, so nothing was loaded here. If a delegation tool is offered, delegate the request to the "${name}" role with it${
      args ? ` (the task: "${args}", with the context it needs)` : ""
    }; otherwise tell the user that "${name}" runs only as a sub-agent and cannot be started with a command here.`,
  };
}

export function notUserInvocable(command: string, name: string): Why {
  return {
    error_type: "NOT_USER_INVOCABLE",
    message: `The user typed "${command}", but skill "${name}" cannot be started by a command (it is used automatically when a request matches it), so nothing was loaded. Tell the user the command did not run; if the rest of the message is a request, handle it as an ordinary one.`,
  };
}

export function excluded(name: string, veto: Vetoed): Why {
  return {
    error_type: "EXCLUDED",
    message: `Skill "${name}" is not for this request: its exclusion "${veto.exclusion}" matches ("${veto.matched}"). Do not use it; handle the request without it, or ask the user if they really mean it (they can type /${name}).`,
  };
}

export function argumentsTooLong(max: number): Why {
  return {
    error_type: "INVALID_ARGUMENTS",
    message: `The arguments are longer than ${max} characters. Call the tool again with short arguments (a few words or values); put long content in the conversation instead.`,
  };
}

export function alreadyActive(name: string): Why {
  return {
    error_type: "ALREADY_ACTIVE",
    message: `Skill "${name}" is already active and its instructions are in the system prompt. Do not activate it again; continue following them.`,
  };
}

/**
 * A skill activation through a tool the step did not offer. Without a way to name, the words
 * are those of any skill tool the step did not register (the same in every adapter, and
 * naming nothing of the skill).
 */
export function notOffered(tool: string, name: string, way: string | undefined): Why {
  return {
    error_type: "TOOL_NOT_OFFERED",
    message: way
      ? `${tool} is not one of the tools offered to you now, so skill "${name}" was not activated. To activate it, call ${way}.`
      : `${tool} is not one of the tools offered to you now, so nothing was activated. Continue with the tools you are offered.`,
  };
}

export function groupConflict(name: string, rival: string, group: string): Why {
  return {
    error_type: "GROUP_CONFLICT",
    message: `Skill "${name}" and the active skill "${rival}" are alternatives (group "${group}"); only one can be active. Continue with "${rival}", or ask the user whether to switch (they can type /${name}).`,
  };
}

/** The system-text note for skills a user message ended. */
export function endedNote(
  ended: readonly EndedSkill[],
  reoffer: (name: string) => string | undefined,
): string {
  const lines: string[] = [];
  const byUser = ended.filter((e) => e.why === "user").map((e) => `"${e.name}"`);
  if (byUser.length > 0) {
    lines.push(
      `The user ended ${byUser.join(", ")} (/done): do not continue ${byUser.length === 1 ? "that skill's" : "those skills'"} task unless asked; acknowledge briefly.`,
    );
  }
  for (const e of ended) {
    if (e.why === "new-request") {
      const tool = reoffer(e.name);
      lines.push(
        `Skill "${e.name}" (active for the previous request) has ended: this message looks like a new request.${
          tool ? ` If it continues that task, call ${tool} to activate it again.` : ""
        }`,
      );
    } else if (e.why === "new-turn") {
      lines.push(`Skill "${e.name}" (active for the previous request) has ended.`);
    }
  }
  return lines.join("\n");
}

export function nothingToEndNote(): string {
  return "The user typed /done, but no skill was active. Acknowledge briefly.";
}

/** Stage 1 found two skills that fit equally well: the seed's rule is to ask, not to guess. */
export function ambiguityNote(names: readonly string[]): string {
  return `Skills ${names.map((n) => `"${n}"`).join(" and ")} fit this request about equally well. Ask the user which one they mean before activating either.`;
}

export function blockedByDisallowed(
  tool: string,
  skill: string,
  entry: string,
  allowed: readonly string[],
): string {
  return `Tool "${tool}" is not allowed while skill "${skill}" is active (its disallowed-tools include "${entry}"). Do the task without it, using: ${toolList(allowed)}, or ask the user.`;
}

export function blockedByWhitelist(tool: string, skill: string, allowed: readonly string[]): string {
  return `Tool "${tool}" is not allowed while skill "${skill}" is active: ${
    allowed.length > 0 ? `the tools you may use are ${toolList(allowed)}` : "no tools may be used"
  }. Use one of those, or ask the user before going outside the skill.`;
}

export function blockedArguments(tool: string, skill: string, condition: string): string {
  return `This call of "${tool}" is not allowed while skill "${skill}" is active: ${condition}. Change the call to fit, or ask the user.`;
}

export function protectedFiles(tool: string, target: string): string {
  return `Tool "${tool}" may not change skill files or skillshelf's state ("${target}"): skills change only through the user. Tell the user what you would change and why; they can edit the skill or accept an improvement proposal.`;
}
