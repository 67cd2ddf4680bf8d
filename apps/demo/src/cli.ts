import { parseArgs } from "node:util";
import { FRAMEWORKS, type Framework } from "./runners/runner.js";

export interface CliOptions {
  framework: Framework;
  /** Talk to the team yourself instead of watching the scripted story. */
  chat: boolean;
  /** Accept every improvement proposal without asking. */
  yes: boolean;
  /** The event stream as JSON lines on stdout, instead of the transcript. */
  json: boolean;
  /** Colour: forced on/off, or undefined to follow the terminal. */
  color: boolean | undefined;
  /** Keep the sandbox folder after the run (to look at what the agents did). */
  keep: boolean;
  /** Use the OpenAI-compatible model OPENAI_API_KEY points at (a paid API), not the offline one. */
  realModel: boolean;
  help: boolean;
}

export const USAGE = `Usage: node apps/demo/dist/main.js [options]   (or: bash scripts/demo.sh [options])

A team of sub-agents whose roles are skills, on a sandbox copy of a tiny project.

Options:
  -f, --framework <name>  ai-sdk (default), langchain or mastra: the same story, the same skill events
      --chat              talk to the team yourself: requests, "/skill args", improvement cards
  -y, --yes               accept improvement proposals without asking
      --json              print the event stream as JSON lines instead of the transcript
      --color, --no-color force colour on or off (default: on for a terminal, honours NO_COLOR)
      --keep              keep the sandbox folder afterwards
      --real-model        use the real model of OPENAI_API_KEY (a paid API) instead of the offline one
  -h, --help              show this help

Model: an offline, deterministic demo model (not an LLM). With --real-model, the model of
OPENAI_API_KEY: OPENAI_BASE_URL (any OpenAI-compatible server) and SKILLSHELF_MODEL
(default gpt-4o-mini) apply. A key alone never makes the demo call an API.`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseCli(argv: readonly string[]): CliOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, ""));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const framework = values.framework ?? "ai-sdk";
  if (!(FRAMEWORKS as readonly string[]).includes(framework)) {
    throw new UsageError(`unknown framework "${framework}": use ${FRAMEWORKS.join(", ")}`);
  }
  if (values.json && values.chat)
    throw new UsageError("--json is for the scripted run; --chat is a conversation on the terminal");
  return {
    framework: framework as Framework,
    chat: values.chat ?? false,
    yes: values.yes ?? false,
    json: values.json ?? false,
    color: values["no-color"] ? false : values.color ? true : undefined,
    keep: values.keep ?? false,
    realModel: values["real-model"] ?? false,
    help: values.help ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      framework: { type: "string", short: "f" },
      chat: { type: "boolean" },
      yes: { type: "boolean", short: "y" },
      json: { type: "boolean" },
      color: { type: "boolean" },
      "no-color": { type: "boolean" },
      keep: { type: "boolean" },
      "real-model": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
