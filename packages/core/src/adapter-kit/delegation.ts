/**
 * The delegation tool `{ role, task }` as every adapter runs it. Core decides its name (never
 * one of the host's tools), checks each call, resolves the sub-agent and shapes the answer the
 * lead model reads; an adapter only starts its framework's agent with what it is given.
 */
import { type Delegation, type DelegationErrorType, delegationToolSpec } from "../roles/delegation.js";
import { delegationScope } from "../roles/delegation-scope.js";
import { currentSession, runInSession } from "../session/current-session.js";
import type { Shelf } from "../shelf.js";
import type { Diagnostic, Role, ToolResult, ToolSpec } from "../types.js";

/** What a delegation returns to the lead model. */
export interface DelegationAnswer {
  role: string;
  /** The sub-agent's final answer. */
  text: string;
  /** The host tools it had. */
  tools: string[];
}

export type DelegationToolResult = ToolResult<DelegationAnswer, DelegationErrorType>;

/**
 * The delegation tool's spec for a host with these tools: named `delegate`, or its next
 * deterministic name (`skillshelf_delegate`, …) when the host has a tool of that name.
 * Throws when there are no roles: a delegation tool without roles is a setup mistake.
 */
export function hostDelegationSpec(
  roles: readonly Role[],
  hostTools: readonly string[],
  options: { name?: string } = {},
): ToolSpec {
  const spec = delegationToolSpec(roles, { tools: hostTools, name: options.name });
  if (spec) {
    // The tool is made once but roles hot-reload: a fixed enum would reject a role file added
    // later (frameworks validate input against the schema). The description lists the roles
    // and core checks the name at call time.
    const properties = spec.inputSchema.properties as Record<string, Record<string, unknown>>;
    const { enum: _fixed, ...role } = properties.role ?? {};
    spec.inputSchema = { ...spec.inputSchema, properties: { ...properties, role } };
  }
  if (!spec) {
    throw new Error(
      "skillshelf: the shelf has no roles, and a delegation tool needs at least one. Add a skill with `role: true`, or keep the builtin roles (createShelf({ builtinRoles })).",
    );
  }
  return spec;
}

/** The success result of a delegation, as every adapter returns it. */
export function delegationResult(
  role: string,
  text: string,
  tools: readonly string[],
  withheld: readonly string[] = [],
): Extract<DelegationToolResult, { status: "success" }> {
  return {
    status: "success",
    data: { role, text, tools: [...tools] },
    message: `The ${role} sub-agent finished; its answer is data.text.${
      withheld.length > 0
        ? ` It ran without ${withheld.join(", ")}: the active skills do not allow ${withheld.length === 1 ? "that tool" : "those tools"} here.`
        : ""
    }`,
  };
}

export interface RunDelegationOptions {
  /** The host tools a sub-agent may be given (its role's whitelist picks from these). */
  tools: readonly string[];
  /** Start the framework's sub-agent for what core prepared; resolve with its final text. */
  run: (delegation: Delegation) => Promise<string>;
  /** Problems found resolving the role's tools (a whitelisted name that matches none). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * One delegation tool call: core checks the input (UNKNOWN_ROLE, INVALID_ARGUMENTS come back
 * as results the lead model can act on), records the `delegated` event, resolves the role's
 * tools, instructions and model; `run` starts the sub-agent. An error `run` throws is the
 * framework's to report, like any failing tool.
 */
export async function runDelegation(
  shelf: Pick<Shelf, "prepareDelegation">,
  input: unknown,
  options: RunDelegationOptions,
): Promise<DelegationToolResult> {
  const prepared = shelf.prepareDelegation(input, options.tools);
  if (prepared.status === "error") return prepared;
  const delegation = prepared.data;
  if (options.onDiagnostic) for (const diagnostic of delegation.diagnostics) options.onDiagnostic(diagnostic);
  // Run under the sub-agent's bound: a delegation it starts in turn gets no more than it has.
  const text = await runInSession(delegationScope(currentSession(), delegation), () =>
    options.run(delegation),
  );
  return delegationResult(delegation.role.name, text, delegation.tools, delegation.withheld);
}
