/**
 * Is this skill folder, as it is now, what the user trusted? Unchanged: trusted. Changed
 * without granting itself more: still trusted, flagged. Changed so that it widens what it can
 * do — more tools, fewer refused tools, model invocation turned on, new triggers, a `paths:`
 * gate dropped or given a new glob, a workflow step that runs something new, new or changed
 * scripts — needs the user to trust it again.
 */
import type { Skill } from "../types.js";
import { type FolderDigest, scriptEntries } from "./folder-digest.js";
import type { TrustedPolicy, TrustRecord } from "./trust-store.js";

export type TrustStatus =
  /** Never trusted: withheld from the model until `skillshelf trust`. */
  | "untrusted"
  /** The bytes the user trusted. */
  | "trusted"
  /** Changed since trusted, without widening: still trusted, flagged. */
  | "changed"
  /** Changed so that it widens its reach: withheld until trusted again. */
  | "needs-retrust";

export interface TrustState {
  status: TrustStatus;
  /** The skill's folder (its real path): what `skillshelf trust` takes. */
  folder: string;
  /** What changed since it was trusted (files, and how it widens). */
  changes: string[];
}

/** Whether a skill in this state may reach the model (undefined: a user or builtin skill, no gate). */
export function isTrusted(state: TrustState | undefined): boolean {
  return state === undefined || state.status === "trusted" || state.status === "changed";
}

type JudgedFields = Pick<Skill, "allowedTools" | "disallowedTools" | "disableModelInvocation" | "triggers"> &
  Partial<Pick<Skill, "paths" | "steps">>;

/** The fields of a skill that trust is judged on. */
export function policyOf(skill: JudgedFields): TrustedPolicy {
  const stepRuns = (skill.steps ?? []).flatMap((step) => (step.run ? [step.run] : []));
  return {
    allowedTools: skill.allowedTools ? [...skill.allowedTools] : null,
    disallowedTools: [...skill.disallowedTools],
    disableModelInvocation: skill.disableModelInvocation,
    triggers: [...skill.triggers],
    // Written even when empty: a record without them is older than them (see widenings).
    paths: skill.paths && skill.paths.length > 0 ? [...skill.paths] : null,
    stepRuns,
  };
}

/** How `now` grants more than `then` (empty when it does not). */
export function widenings(
  then: TrustedPolicy,
  now: TrustedPolicy,
  scriptsThen: Record<string, string>,
  scriptsNow: Record<string, string>,
): string[] {
  const out: string[] = [];
  if (then.allowedTools !== null) {
    if (now.allowedTools === null) out.push("allowed-tools removed (every tool)");
    else {
      const added = now.allowedTools.filter((t) => !then.allowedTools!.includes(t));
      if (added.length > 0) out.push(`allowed-tools adds ${added.join(", ")}`);
    }
  }
  const dropped = then.disallowedTools.filter((t) => !now.disallowedTools.includes(t));
  if (dropped.length > 0) out.push(`disallowed-tools drops ${dropped.join(", ")}`);
  if (then.disableModelInvocation && !now.disableModelInvocation)
    out.push("disable-model-invocation removed");
  const triggers = now.triggers.filter((t) => !then.triggers.includes(t));
  if (triggers.length > 0) out.push(`triggers add ${triggers.join(", ")}`);
  // A gate that is gone, or a glob it did not have, offers the skill where it was not. A
  // record older than this field cannot say whether there was a gate: fail closed, as if
  // there was one, so a changed skill without a gate needs one new trust.
  if (then.paths === undefined) {
    if (!now.paths || now.paths.length === 0)
      out.push("paths: trusted before gates were recorded, now offered whatever the files");
  } else if (then.paths && then.paths.length > 0) {
    if (!now.paths || now.paths.length === 0) out.push("paths removed (offered whatever the files)");
    else {
      const globs = now.paths.filter((g) => !then.paths!.includes(g));
      if (globs.length > 0) out.push(`paths add ${globs.join(", ")}`);
    }
  }
  // A step's run is done by core, not chosen by the model: like a script. A record older
  // than this field knew of none, so every run counts as new.
  const runs = (now.stepRuns ?? []).filter((r) => !(then.stepRuns ?? []).includes(r));
  if (runs.length > 0) out.push(`workflow steps run ${[...new Set(runs)].join(", ")}`);
  for (const [script, hash] of Object.entries(scriptsNow)) {
    if (!(script in scriptsThen)) out.push(`adds ${script}`);
    else if (scriptsThen[script] !== hash) out.push(`changes ${script}`);
  }
  return out;
}

/** The trust state of a project skill from its record (if any) and its folder's digest. */
export function evaluateTrust(
  skill: JudgedFields,
  folder: string,
  digest: FolderDigest,
  record: TrustRecord | undefined,
): TrustState {
  if (!record) return { status: "untrusted", folder, changes: [] };
  const changed = new Set<string>();
  for (const [file, hash] of Object.entries(digest.files)) if (record.files[file] !== hash) changed.add(file);
  for (const file of Object.keys(record.files)) if (!(file in digest.files)) changed.add(file);
  if (changed.size === 0 && !digest.truncated && !record.truncated)
    return { status: "trusted", folder, changes: [] };
  const widened = widenings(record.policy, policyOf(skill), scriptEntries(record), scriptEntries(digest));
  // A folder too big to hash whole cannot be shown unchanged: it needs a new look.
  if (digest.truncated) widened.push("too many files to verify");
  const files = [...changed].sort().map((f) => `${f} changed`);
  return widened.length > 0
    ? { status: "needs-retrust", folder, changes: [...widened, ...files] }
    : { status: "changed", folder, changes: files };
}
