#!/usr/bin/env node
/**
 * `node apps/demo/dist/main.js [--framework ai-sdk|langchain|mastra] [--chat] [--yes] [--json]`
 *
 * The scripted story by default: non-interactive, so it never waits for input (scripts, CI).
 * The improvement card in it is answered by the scripted user, who accepts, and the
 * transcript says so; `--chat` lets you answer cards yourself, `--yes` accepts them all.
 */
import { realpathSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import pc from "picocolors";
import { runChat } from "./chat.js";
import { parseCli, USAGE, UsageError } from "./cli.js";
import { openDemo } from "./demo.js";
import { createEventBus } from "./events.js";
import type { Decider } from "./improve.js";
import { removeOnSignal } from "./remove-on-signal.js";
import { createJsonWriter, createRenderer, summaryOf } from "./render.js";
import { modelFromEnv } from "./runners/runner.js";
import { runStory, SCRIPTED_USER } from "./story.js";

export interface Io {
  /** Whether Ctrl-C / SIGTERM should delete the sandbox before the process exits (the real CLI). */
  signals?: boolean;
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const processIo = (): Io => ({
  signals: true,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});

/** Runs the demo; resolves to the exit code (0 done, 1 failed, 2 bad usage). */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  io: Io = processIo(),
): Promise<number> {
  let options: ReturnType<typeof parseCli>;
  try {
    options = parseCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }

  // A key in the shell is not consent to a paid API: only --real-model uses it.
  const model = options.realModel ? modelFromEnv(io.env) : ({ kind: "offline" } as const);
  if (options.realModel && model.kind === "offline") {
    io.stderr.write("error: --real-model needs OPENAI_API_KEY (and optionally OPENAI_BASE_URL)\n");
    return 2;
  }
  const unusedKey = !options.realModel && Boolean(io.env.OPENAI_API_KEY?.trim());

  const terminal = io.stdout.isTTY === true;
  const color = options.color ?? (terminal && pc.isColorSupported && !io.env.NO_COLOR);
  const bus = createEventBus();
  const renderer = createRenderer({
    out: io.stdout,
    err: io.stderr,
    color,
    // The spinner only where a person watches, and never in the middle of JSON.
    spinner: !options.json && terminal && io.stderr.isTTY === true,
  });
  if (options.json) bus.subscribe(createJsonWriter(io.stdout));
  else bus.subscribe((event) => renderer.handle(event));

  let demo: Awaited<ReturnType<typeof openDemo>> | undefined;
  let stopSignalCleanup: (() => void) | undefined;
  try {
    const by = options.yes ? "--yes" : SCRIPTED_USER;
    demo = await openDemo({
      framework: options.framework,
      model,
      bus,
      approveScript: async () => ({ approve: true, by }),
      confirmWorkflow: async () => ({ approve: true, by }),
    });
    if (io.signals && !options.keep) stopSignalCleanup = removeOnSignal(demo.sandbox.dir);
    renderer.useSkills(demo.shelf); // whitelists and scopes the events do not carry
    if (unusedKey)
      bus.emit({ type: "notice", text: "OPENAI_API_KEY is set but unused: --real-model calls that API" });
    if (options.chat) {
      await runChat(demo, { renderer, stdin: io.stdin, stdout: io.stdout, yes: options.yes, color });
    } else {
      const decide: Decider = async () => ({ accept: true, by });
      await runStory(demo, decide);
      if (!options.json) {
        renderer.line();
        renderer.line(`${pc.createColors(color).bold("Done.")} ${summaryOf(bus.events)}.`);
        renderer.line(
          pc
            .createColors(color)
            .dim(
              `The same skill events on every framework: try --framework ${options.framework === "langchain" ? "mastra" : "langchain"}. --chat to talk to the team, --json for the event stream.`,
            ),
        );
      }
    }
    return 0;
  } catch (error) {
    renderer.idle();
    const message = error instanceof Error ? error.message : String(error);
    if (options.json) bus.emit({ type: "error", message });
    else io.stderr.write(`\nerror: ${message}\n`);
    return 1;
  } finally {
    stopSignalCleanup?.();
    renderer.idle();
    if (demo) {
      if (options.keep) {
        await demo.shelf.close();
        if (!options.json) renderer.line(pc.createColors(color).dim(`sandbox kept: ${demo.sandbox.dir}`));
      } else {
        await demo.close();
      }
    }
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
