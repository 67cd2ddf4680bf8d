/**
 * The front door: one object per shelf with everything a Mastra app wires in.
 *
 *   const skills = createSkills({ shelf });
 *   const agent = new Agent({ ...config, inputProcessors: [skills.processor] });
 */
import type { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import type { RequestContext } from "@mastra/core/request-context";
import type { Diagnostic, Generate, Shelf } from "@skillshelf/core";
import { mastraGenerate } from "./generate.js";
import { checkNativeSkills } from "./native-skills.js";
import { createSkillsProcessor, type SkillsProcessorOptions } from "./processor.js";
import {
  createDelegateTool,
  createDelegateTools,
  createRoleAgents,
  type RoleAgentsOptions,
} from "./roles.js";

export interface CreateSkillsOptions extends SkillsProcessorOptions {
  shelf: Shelf;
}

export interface Skills {
  readonly shelf: Shelf;
  /** The input processor: put it in the agent's `inputProcessors`. */
  readonly processor: ReturnType<typeof createSkillsProcessor>;
  /** One Mastra Agent per role skill, keyed by role name, for an orchestrator's `agents: {…}`. */
  roleAgents(options: RoleAgentsOptions): Record<string, Agent>;
  /**
   * The `{ role, task }` delegation tool, keyed by its name, to spread into an agent's tools:
   * `tools: { ...tools, ...skills.delegateTools({ model, tools }) }`. Named `delegate`, or
   * `skillshelf_delegate` when `tools` has a `delegate`, so yours is never replaced.
   */
  delegateTools(options: RoleAgentsOptions): ReturnType<typeof createDelegateTools>;
  /** The same tool alone (its name is its `id`), the same as in the other skillshelf adapters. */
  delegateTool(options: RoleAgentsOptions): ReturnType<typeof createDelegateTool>;
  /** Skill names the agent also has as Mastra skills (see README: coexistence). */
  checkNativeSkills(agent: Agent, options?: { requestContext?: RequestContext }): Promise<Diagnostic[]>;
  /** The model bridge for core's improvement loop. */
  generate(source: Agent | MastraModelConfig): Generate;
}

export function createSkills(options: CreateSkillsOptions): Skills {
  const { shelf, ...processorOptions } = options;
  const processor = createSkillsProcessor(shelf, processorOptions);
  return {
    shelf,
    processor,
    roleAgents: (roleOptions) => createRoleAgents(shelf, roleOptions),
    delegateTools: (roleOptions) => createDelegateTools(shelf, roleOptions),
    delegateTool: (roleOptions) => createDelegateTool(shelf, roleOptions),
    checkNativeSkills: (agent, checkOptions) => checkNativeSkills(agent, shelf, checkOptions),
    generate: mastraGenerate,
  };
}
