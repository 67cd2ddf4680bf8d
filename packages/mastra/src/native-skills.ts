/**
 * Coexistence with Mastra's built-in skills (`skills: [...]` on the agent, or a workspace
 * with skills). Both can run on one agent: Mastra adds its `skill`, `skill_search` and
 * `skill_read` tools and its own catalog; skillshelf adds `skill_<name>`/`activate_skill`.
 * A skill present in both is the one real hazard: loaded through Mastra's `skill` tool,
 * its instructions arrive without skillshelf's tool whitelist.
 */
import type { Agent } from "@mastra/core/agent";
import type { RequestContext } from "@mastra/core/request-context";
import type { Diagnostic, Shelf } from "@skillshelf/core";

/** Mastra's native skill tool names (stable since @mastra/core 1.x). */
export const MASTRA_SKILL_TOOLS = ["skill", "skill_search", "skill_read"] as const;

/**
 * Diagnostics for an agent that has both Mastra skills and a shelf: one `duplicate-name`
 * warning per skill name found in both. Async because Mastra resolves skills lazily.
 */
export async function checkNativeSkills(
  agent: Agent,
  shelf: Shelf,
  options: { requestContext?: RequestContext } = {},
): Promise<Diagnostic[]> {
  const native = await agent.listSkills(
    options.requestContext ? { requestContext: options.requestContext } : {},
  );
  const diagnostics: Diagnostic[] = [];
  for (const entry of native) {
    const ours = shelf.get(entry.name);
    if (!ours) continue;
    diagnostics.push({
      severity: "warning",
      code: "duplicate-name",
      message:
        `Skill "${entry.name}" is both a skillshelf skill and one of agent "${agent.id}"'s Mastra skills ` +
        `(${entry.path}). Loaded through Mastra's "skill" tool it runs without skillshelf's allowed-tools.`,
      file: ours.file,
      line: 1,
      hint: "Keep one copy: remove it from the agent's `skills`/workspace to keep the whitelist enforced, or rename one.",
    });
  }
  return diagnostics;
}
