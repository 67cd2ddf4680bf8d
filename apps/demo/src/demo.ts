/**
 * One demo session: a sandbox copy of the workspace, a shelf over its skills that reports
 * every skill event into the demo's bus, the sandboxed tools, and the chosen framework's
 * agent team. The story, the chat loop and the tests all start here.
 */
import { relative } from "node:path";
import { createShelf, type Shelf, type ShelfOptions } from "@skillshelf/core";
import { createEventBus, type DemoEventBus } from "./events.js";
import {
  AgentScope,
  type Framework,
  type FrameworkRunner,
  LEAD_INSTRUCTIONS,
  type ModelChoice,
  type RunnerContext,
} from "./runners/runner.js";
import { createSandbox, type Sandbox } from "./sandbox.js";
import { createDemoTools } from "./tools.js";
import { demoWorkflows, offlineStepModel, type WorkflowConfirmer } from "./workflow.js";

export interface DemoOptions {
  framework?: Framework;
  model?: ModelChoice;
  bus?: DemoEventBus;
  /** The folder copied into the sandbox (default: the demo's workspace/). */
  template?: string;
  /** Who answers "run this skill script?" (default: nobody, so every run is refused). */
  approveScript?: ScriptApprover;
  /** Who answers "run this workflow?" (default: nobody, so no workflow runs). */
  confirmWorkflow?: WorkflowConfirmer;
}

/** What a skill script run asks: the skill, the script, its arguments and where it runs. */
export type ScriptRequest = Parameters<NonNullable<ShelfOptions["scripts"]>["approve"]>[0];
/** The answer to one script run, and who gave it (shown in the transcript). */
export type ScriptApprover = (request: ScriptRequest) => Promise<{ approve: boolean; by: string }>;

const NOBODY: ScriptApprover = async () => ({ approve: false, by: "nobody (no one to ask)" });

export interface Demo {
  framework: Framework;
  sandbox: Sandbox;
  shelf: Shelf;
  runner: FrameworkRunner;
  bus: DemoEventBus;
  /** Asked before every skill script run; the chat replaces it with a question to the user. */
  approveScript: ScriptApprover;
  /** Asked before a workflow skill runs; the chat replaces it with a question to the user. */
  confirmWorkflow: WorkflowConfirmer;
  close(): Promise<void>;
}

export async function openDemo(options: DemoOptions = {}): Promise<Demo> {
  const framework = options.framework ?? "ai-sdk";
  const model = options.model ?? { kind: "offline" };
  const bus = options.bus ?? createEventBus();
  const sandbox = await createSandbox(options.template);
  // Bound late: the chat asks through its own prompt, created after the shelf.
  let approveScript = options.approveScript ?? NOBODY;
  let confirmWorkflow: WorkflowConfirmer =
    options.confirmWorkflow ?? (async () => ({ approve: false, by: "nobody (no one to ask)" }));
  // Workflow steps run on the offline step model, or on the real model once its runner exists.
  let stepModel = offlineStepModel;
  try {
    const shelf = await createShelf({
      root: sandbox.dir,
      // Only the sandbox's skills (and the builtin roles): the story must not depend on
      // whatever is in the user's ~/.skillshelf or ~/.agents.
      userDirs: [],
      events: bus,
      workflows: demoWorkflows({
        bus,
        root: sandbox.dir,
        confirm: () => confirmWorkflow,
        generate: () => stepModel,
      }),
      scripts: {
        run: true,
        // The skill folder is inside the sandbox copy, and count-lines reads the project
        // around it: a throwaway copy of the folder alone would see no project.
        cwd: "skill",
        timeoutMs: 10_000,
        maxOutput: 4_096,
        approve: async (request) => {
          bus.emit({
            type: "script-request",
            skill: request.skill,
            script: request.script,
            args: request.args,
          });
          const answer = await approveScript(request).catch(() => ({ approve: false, by: "an error" }));
          bus.emit({ type: "script-decided", skill: request.skill, script: request.script, ...answer });
          return answer.approve;
        },
      },
    });
    const tools = createDemoTools(sandbox);
    const ctx: RunnerContext = {
      shelf,
      tools,
      model,
      bus,
      instructions: LEAD_INSTRUCTIONS,
      agents: new AgentScope(),
      onDiagnostic: (d) =>
        bus.emit({
          type: "diagnostic",
          code: d.code,
          severity: d.severity,
          file: d.file,
          message: d.message,
        }),
    };
    const runner = await createRunner(framework, ctx);
    if (model.kind !== "offline") stepModel = runner.generate;
    bus.emit({
      type: "setup",
      framework,
      model: model.kind === "offline" ? "offline" : model.model,
      offline: model.kind === "offline",
      sandbox: sandbox.dir,
      tools: [...tools.map((t) => t.name), "delegate"],
      skills: shelf.skills().map((s) => ({
        name: s.name,
        scope: s.scope,
        role: s.role,
        file: s.scope === "builtin" ? "builtin" : relative(sandbox.dir, s.file),
        hidden: s.disableModelInvocation,
      })),
    });
    return {
      framework,
      sandbox,
      shelf,
      runner,
      bus,
      get approveScript() {
        return approveScript;
      },
      set approveScript(next) {
        approveScript = next;
      },
      get confirmWorkflow() {
        return confirmWorkflow;
      },
      set confirmWorkflow(next) {
        confirmWorkflow = next;
      },
      async close() {
        await shelf.close();
        await sandbox.dispose();
      },
    };
  } catch (error) {
    await sandbox.dispose();
    throw error;
  }
}

/** Each framework's runner is loaded only when chosen: none of them pays for the others' imports. */
async function createRunner(framework: Framework, ctx: RunnerContext): Promise<FrameworkRunner> {
  switch (framework) {
    case "ai-sdk":
      return (await import("./runners/ai-sdk.js")).createAiSdkRunner(ctx);
    case "langchain":
      return (await import("./runners/langchain.js")).createLangchainRunner(ctx);
    case "mastra":
      return (await import("./runners/mastra.js")).createMastraRunner(ctx);
  }
}
