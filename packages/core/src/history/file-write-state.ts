/**
 * Where a skill store keeps versions and the ledger when it is given no state store: files
 * under the state folder, one process's own write scope (the file lock is taken by the writer).
 */
import { join } from "node:path";
import type { SkillWriteScope, StateStore } from "../store/state-store.js";
import type { AtomicFs } from "./atomic-write.js";
import { createHistoryStore } from "./history-store.js";
import { createLedger } from "./ledger.js";

export function fileWriteState(
  stateDir: string,
  fs: AtomicFs | undefined,
): Pick<StateStore, "history" | "ledger" | "writeSkill"> {
  const history = createHistoryStore({ dir: join(stateDir, "history"), fs });
  const ledger = createLedger(join(stateDir, "ledger.jsonl"));
  const scope: SkillWriteScope = { head: async () => undefined, history, ledger };
  return { history, ledger, writeSkill: (_name, task) => task(scope) };
}
