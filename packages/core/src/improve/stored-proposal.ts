/**
 * A stored record checked against the proposal schema, wherever it was kept (a file, a
 * database row): a record that does not fit is refused, never half-trusted. Apart from the
 * file store so that opening a store does not load the schema library; reading a record does.
 */
import { ImproveError } from "./errors.js";
import { type ImprovementProposal, StoredProposalSchema } from "./schema.js";

export function parseStoredProposal(json: unknown, where: string, id: string): ImprovementProposal {
  const parsed = StoredProposalSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImproveError(
      "INVALID_RECORD",
      `${where} is not a proposal record (${issue.path.join(".") || "(root)"}: ${issue.message})`,
      { id, path: where },
    );
  }
  return parsed.data;
}
