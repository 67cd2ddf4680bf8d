/**
 * The model a step runs on while an active skill names one (its `model` field, chosen by
 * core as `plan.model`): the host maps the id with `resolveModel`. Without a mapping (no
 * `resolveModel`, or it returns undefined or throws) the step keeps the host's model, and a
 * diagnostic says so once per id, so a skill file never picks a model the host did not offer.
 */
import type { Diagnostic, Session } from "../types.js";

export function skillModels<M>(
  resolve: ((id: string) => M | undefined) | undefined,
  report: (diagnostic: Diagnostic) => void,
): (id: string | undefined, session: Session, forked?: string) => M | undefined {
  const told = new Set<string>();
  // `forked`: the skill whose sub-agent asks (it is never active in the session).
  return (id, session, forked) => {
    if (id === undefined) return undefined;
    let model: M | undefined;
    let failure = "";
    try {
      model = resolve?.(id);
    } catch (error) {
      failure = ` (resolveModel threw: ${error instanceof Error ? error.message : String(error)})`;
    }
    if (model !== undefined && model !== null) return model;
    if (!told.has(id)) {
      told.add(id);
      const skill = forked === undefined ? session.active().find((s) => s.model?.trim() === id) : undefined;
      report({
        severity: "info",
        code: "field-not-applied",
        message: `Skill "${forked ?? skill?.name ?? "?"}" asks for model "${id}", but ${
          resolve ? `resolveModel maps it to no model${failure}` : "no resolveModel option maps model ids"
        }: its steps run on the agent's own model.`,
        file: skill?.file ?? "",
        line: 1,
        hint: "Pass resolveModel: (id) => yourModelFor(id), or remove model from the skill.",
      });
    }
    return undefined;
  };
}
