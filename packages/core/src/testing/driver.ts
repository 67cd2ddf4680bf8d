/**
 * The conformance suite's contract with an adapter. A driver runs one framework's real agent
 * loop (its own mock model, its own tool objects, its own state handling) and reports, for
 * every model call, what the model saw. The same scenarios must give the same records on
 * every framework: that is what "the same behaviour in all three" means, as a test.
 */
import type { Shelf } from "../shelf.js";

/** A host tool, framework-neutral: each driver turns it into its framework's tool. */
export interface HostTool {
  name: string;
  description: string;
  /** JSON Schema of the input (an object schema). */
  inputSchema: Record<string, unknown>;
  /**
   * The framework checks a call's input against `inputSchema` before the tool runs, as it
   * does a host's zod tool (drivers build the schema with zod's `z.fromJSONSchema`). Left
   * out: the input reaches `run` unchecked.
   */
  strict?: boolean;
  /**
   * The caller runs it, not the framework (a tool without `execute`): the framework hands a
   * call over and the run stops for it. The driver then calls `run` for each call handed over,
   * as the caller would, and the user's turn ends there. Only drivers with `clientTools` get
   * such tools (`conformanceScenariosFor`).
   */
  client?: boolean;
  /**
   * The framework asks the caller before each call of it runs (Mastra's `requireApproval`, the
   * AI SDK's `needsApproval`, LangChain's `humanInTheLoopMiddleware`). The driver approves each
   * call it is asked about from a new process (a new agent over the same stored run or posted
   * messages, as a serverless route's next request), and the run goes on there. Only drivers
   * with `approvals` get such tools (`conformanceScenariosFor`).
   */
  approval?: boolean;
  /** What the tool returns (JSON-serialisable). A test counts calls through this. */
  run(input: Record<string, unknown>): unknown | Promise<unknown>;
}

/** A tool as the model was offered it. */
export interface SeenTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One message of the conversation as the model reads it. */
export type SeenMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text?: string; calls?: Array<{ name: string; input: unknown }> }
  /** A tool's result as the model reads it: JSON values parsed, errors as the framework words them. */
  | { role: "tool"; name: string; result: unknown };

/** Everything the model saw in one call. */
export interface ModelView {
  /** Every system text of the call, in order, joined by a blank line. */
  system: string;
  tools: SeenTool[];
  messages: SeenMessage[];
}

/**
 * A scripted tool call. `id` is the call id the model sends; left out, the driver numbers the
 * calls itself. A model chooses its ids, so a scenario may repeat one (a hostile model).
 */
export interface ScriptedCall {
  id?: string;
  name: string;
  input?: Record<string, unknown>;
}

/** What the scripted model answers: text (the run ends) or tool calls (the loop goes on). */
export type ModelReply = { text: string } | { calls: ScriptedCall[] };

/** The model: a function of what it sees (scenarios script it). */
export type ScriptedModel = (view: ModelView) => ModelReply;

export interface DriverOptions {
  shelf: Shelf;
  tools: HostTool[];
  model: ScriptedModel;
  /** The host's own system prompt. */
  system: string;
  /** Role sub-agents: the scripted model the sub-agent runs on (delegation scenarios). */
  roleModel?: ScriptedModel;
  /**
   * Models a skill's `model:` id may switch to: the driver maps each id to its framework's
   * model with the adapter's `resolveModel`. A forked skill's sub-agent runs on the agent's
   * own model (`model`), or on one of these when its skill names one.
   */
  models?: Readonly<Record<string, ScriptedModel>>;
  /** Files the host reports as touched, passed with the adapter's `files` option. */
  files?: readonly string[];
  /**
   * The framework asks the caller before every call, skillshelf's own tools included (a host
   * that asks about every tool: Mastra's `requireToolApproval`, the AI SDK's `toolApproval`,
   * LangChain's `humanInTheLoopMiddleware` on every tool name). The driver approves each call
   * it is asked about from a new process, as for `HostTool.approval`, where its framework can
   * answer skillshelf's tools there (the AI SDK's next request, LangChain's checkpointer);
   * Mastra's driver approves in the process that asked (a new one cannot: its README says
   * why). Only drivers with `approvals` get it.
   */
  approveEveryCall?: boolean;
}

/**
 * An edit of the stored conversation, as a client makes it where the host reads the
 * conversation back from outside (the messages a client posts, a checkpoint in a store it can
 * write): the limits recorded for `skill`'s activation are replaced by `policy`. Said in no
 * framework's words: each driver applies it to its own stored form (`tamperedResult`,
 * `tamperedState`).
 */
export interface ConversationEdit {
  /** The skill whose recorded activation is edited. */
  skill: string;
  /**
   * What the record's pinned limits become: its activation result's `data.policy`, and a
   * checkpoint entry's `policy`. `{ disallowedTools: [] }` drops the whitelist altogether.
   */
  policy: unknown;
}

/** One conversation (a thread) in a framework. */
export interface DriverConversation {
  /** One user message: the framework runs its agent loop until the model answers with text. */
  send(message: string): Promise<void>;
  /**
   * Forget everything the conversation holds but its messages, as a host does that rebuilds a
   * thread from stored messages (a new process, a new agent): the next `send` replays them.
   */
  rebuild(): void | Promise<void>;
  /**
   * Edit the conversation as stored before the next `send` (or `rebuild`): every activation
   * result of the skill in the messages the framework keeps or a client resends, and the
   * skill's entry in any state the framework checkpoints beside them. Only drivers that
   * declare `tamper` have it (`conformanceScenariosFor`).
   */
  tamper?(edit: ConversationEdit): void | Promise<void>;
}

export interface ConformanceDriver {
  /** e.g. "langchain", "ai-sdk", "mastra". */
  readonly name: string;
  /** The framework has tools its caller runs (`HostTool.client`); LangChain has none. */
  readonly clientTools?: boolean;
  /** The conversation can be edited as stored (`DriverConversation.tamper`), as a client edits it. */
  readonly tamper?: boolean;
  /**
   * The framework can ask the caller before a call runs, and resume in another process
   * (`HostTool.approval`, `DriverOptions.approveEveryCall`).
   */
  readonly approvals?: boolean;
  conversation(options: DriverOptions): DriverConversation | Promise<DriverConversation>;
}
