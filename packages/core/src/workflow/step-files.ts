/**
 * A workflow skill's step prompts: `steps/NN-<id>.md` beside SKILL.md, read through the
 * confined reader (no `..`, no link out of the skill folder, regular files only), so a
 * hostile skill cannot make a step prompt out of a file elsewhere on the machine.
 */
import fs from "node:fs";
import { diagnostic } from "../diagnostic.js";
import { skillParameters } from "../parameters/skill-parameters.js";
import { confine } from "../skill-files/confine.js";
import type { Diagnostic, Skill, WorkflowStep } from "../types.js";
import { contractProblems, parameterNames, stepFileName } from "./step-fields.js";

/** A step prompt is instructions, not a data file. */
export const MAX_STEP_PROMPT_BYTES = 64 * 1024;

export interface LoadedStep extends WorkflowStep {
  /** The prompt file, relative to the skill folder. */
  file: string;
  prompt: string;
}

export type WorkflowFiles = { ok: true; steps: LoadedStep[] } | { ok: false; diagnostics: Diagnostic[] };

/** Reads every step's prompt file; any missing, escaping or oversized file is a located error. */
export function readStepFiles(skill: Pick<Skill, "steps" | "dir" | "file">): WorkflowFiles {
  const steps = skill.steps ?? [];
  const diagnostics: Diagnostic[] = [];
  const loaded: LoadedStep[] = [];
  if (skill.dir === undefined) {
    return {
      ok: false,
      diagnostics: [problem(skill.file, "a workflow skill needs a folder for its steps/ files")],
    };
  }
  for (const [index, step] of steps.entries()) {
    const file = stepFileName(index, step.id);
    const found = confine(skill.dir, file, "steps");
    if (!found.ok) {
      diagnostics.push(problem(skill.file, `step ${index + 1} (\`${step.id}\`): ${file}: ${found.problem}`));
      continue;
    }
    if (found.stat.size > MAX_STEP_PROMPT_BYTES) {
      diagnostics.push(
        problem(
          skill.file,
          `${file} is ${found.stat.size} bytes; a step prompt may be at most ${MAX_STEP_PROMPT_BYTES}`,
        ),
      );
      continue;
    }
    let prompt: string;
    try {
      prompt = new TextDecoder("utf-8", { fatal: true }).decode(fs.readFileSync(found.real));
    } catch {
      diagnostics.push(problem(skill.file, `${file} is not UTF-8 text`));
      continue;
    }
    loaded.push({ ...step, file, prompt: prompt.replace(/\r\n?/g, "\n").trim() });
  }
  return diagnostics.length > 0 ? { ok: false, diagnostics } : { ok: true, steps: loaded };
}

/**
 * What only the skill's folder can tell about its workflow: the step files, and every input
 * against the parameters the skill really has (`schema.json` included). For `skillshelf
 * validate` and hosts checking at load; a run refuses a workflow with any of these.
 */
export function checkStepFiles(
  skill: Pick<Skill, "steps" | "dir" | "file" | "arguments" | "parameters">,
): Diagnostic[] {
  if (!skill.steps || skill.steps.length === 0) return [];
  const files = readStepFiles(skill);
  const contract = contractProblems(skill, resolvedParameterNames(skill)).map((message) =>
    diagnostic({ severity: "error", code: "invalid-steps", message, file: skill.file }),
  );
  return [...(files.ok ? [] : files.diagnostics), ...contract];
}

/** The user's names: `args`, `arguments`, and the properties of the schema the skill uses (schema.json wins). */
export function resolvedParameterNames(
  skill: Pick<Skill, "dir" | "file" | "arguments" | "parameters">,
): Set<string> {
  const resolved = skillParameters(skill).parameters?.schema;
  return parameterNames({ arguments: skill.arguments ?? [], parameters: resolved ?? skill.parameters });
}

function problem(file: string, message: string): Diagnostic {
  return diagnostic({ severity: "error", code: "missing-step-file", message, file });
}
