/**
 * Seed 004's `safe_refactor` (analyze → plan → execute → verify) as a real skill folder in
 * a temp dir, and a scripted model that answers each step from what the step was given.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseSkill } from "../../parse/parse-skill.js";
import type { Generate, Skill } from "../../types.js";

export const SAFE_REFACTOR_MD = `---
name: safe-refactor
version: 1.2.0
domain: code
description: Refactor one module safely - analyse it, plan the change, apply it and run the regression tests. Use for splitting large functions, merging duplicated code or changing an interface across files.
arguments: [module_path]
triggers: [safe refactor, 安全重构]
steps:
  - id: analyze
    title: 现状分析
    input: [module_path]
    output: analysis_report
    verify: 读取目标模块成功且生成依赖清单
  - id: plan
    title: 生成重构方案
    input: [analysis_report]
    output: refactor_plan
    verify: 方案中包含文件列表、改动类型、风险评估
  - id: execute
    title: 执行改动
    input: [refactor_plan]
    output: changed_files
    verify: 全部改动文件通过语法检查
  - id: verify
    title: 回归验证
    input: [changed_files]
    output: verify_result
    verify: tests-pass
---
Refactor $module_path in four steps; each step's output is the next one's input.
`;

export const STEP_PROMPTS: Record<string, string> = {
  "01-analyze": "Read the module at module_path and list its functions and what depends on them.",
  "02-plan": "From the analysis report, write the refactoring plan: files, kind of change, risk.",
  "03-execute": "Apply the plan. List every changed file.",
  "04-verify": "Run the regression tests on the changed files and report the pass rate.",
};

export interface SkillFolder {
  root: string;
  dir: string;
  skill: Skill;
  cleanup(): Promise<void>;
}

/** Writes a skill folder (SKILL.md + steps/) and loads it as the loader would. */
export async function writeWorkflowSkill(
  markdown = SAFE_REFACTOR_MD,
  prompts: Record<string, string> = STEP_PROMPTS,
  root?: string,
): Promise<SkillFolder> {
  const base = root ?? (await mkdtemp(join(tmpdir(), "skillshelf-workflow-")));
  const name = /\nname: ([^\n]+)/.exec(markdown)![1]!.trim();
  const dir = join(base, "skills", name);
  await mkdir(join(dir, "steps"), { recursive: true });
  await writeFile(join(dir, "SKILL.md"), markdown);
  for (const [file, text] of Object.entries(prompts)) await writeFile(join(dir, "steps", `${file}.md`), text);
  return {
    root: base,
    dir,
    skill: loadSkill(dir, markdown),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

export function loadSkill(dir: string, markdown: string): Skill {
  const file = join(dir, "SKILL.md");
  const parsed = parseSkill(markdown, { path: file });
  if (!parsed.skill) throw new Error(parsed.diagnostics.map((d) => d.message).join("; "));
  return { ...parsed.skill, scope: "project", file, dir, locked: false };
}

export interface SeenCall {
  system: string;
  prompt: string;
}

/**
 * A model that answers by what it is asked: each step's output names the step and echoes
 * the first input's first line, so the test can see the contract fields flow; self-checks
 * pass unless `failVerify` says how often to fail a step's check first.
 */
export function scriptedModel(
  options: {
    failVerify?: Record<string, number>;
    hang?: string;
    answer?: (step: string, prompt: string) => string | undefined;
  } = {},
): { generate: Generate; seen: SeenCall[] } {
  const seen: SeenCall[] = [];
  const failures = new Map(Object.entries(options.failVerify ?? {}));
  const generate: Generate = async ({ system, prompt, signal }) => {
    seen.push({ system, prompt });
    if (system.startsWith("You check one step")) {
      const criterion = /^Criterion: (.*)$/m.exec(prompt)?.[1] ?? "";
      const step = stepOfCriterion(criterion);
      const left = step ? (failures.get(step) ?? 0) : 0;
      if (step && left > 0) {
        failures.set(step, left - 1);
        return "FAIL: the dependency list is missing";
      }
      return "PASS";
    }
    const step = /Step: .* \(([a-z0-9_-]+)\)\./.exec(prompt)?.[1] ?? "?";
    if (options.hang === step) {
      return new Promise<string>((_, reject) => {
        signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
    }
    const custom = options.answer?.(step, prompt);
    if (custom !== undefined) return custom;
    const firstInput = /<input name="[^"]+">\n([^\n]*)/.exec(prompt)?.[1] ?? "";
    return `${step} output (from: ${firstInput})`;
  };
  return { generate, seen };
}

const CRITERIA: Record<string, string> = {
  读取目标模块成功且生成依赖清单: "analyze",
  "方案中包含文件列表、改动类型、风险评估": "plan",
  全部改动文件通过语法检查: "execute",
};
function stepOfCriterion(criterion: string): string | undefined {
  return CRITERIA[criterion];
}
