/**
 * One demo session: a sandbox copy of the workspace, a shelf over its skills that reports
 * every skill event into the demo's bus, the sandboxed tools, and the chosen framework's
 * agent team. The story, the chat loop and the tests all start here.
 */
import { relative } from "node:path";
import { createShelf, type Shelf } from "@skillshelf/core";
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

export interface DemoOptions {
  framework?: Framework;
  model?: ModelChoice;
  bus?: DemoEventBus;
  /** The folder copied into the sandbox (default: the demo's workspace/). */
  template?: string;
}

export interface Demo {
  framework: Framework;
  sandbox: Sandbox;
  shelf: Shelf;
  runner: FrameworkRunner;
  bus: DemoEventBus;
  close(): Promise<void>;
}

export async function openDemo(options: DemoOptions = {}): Promise<Demo> {
  const framework = options.framework ?? "ai-sdk";
  const model = options.model ?? { kind: "offline" };
  const bus = options.bus ?? createEventBus();
  const sandbox = await createSandbox(options.template);
  try {
    const shelf = await createShelf({
      root: sandbox.dir,
      // Only the sandbox's skills (and the builtin roles): the story must not depend on
      // whatever is in the user's ~/.skillshelf or ~/.agents.
      userDirs: [],
      events: bus,
    });
    const tools = createDemoTools(sandbox);
    const ctx: RunnerContext = {
      shelf,
      tools,
      model,
      bus,
      instructions: LEAD_INSTRUCTIONS,
      agents: new AgentScope(),
    };
    const runner = await createRunner(framework, ctx);
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
