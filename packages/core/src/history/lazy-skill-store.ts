/**
 * The skill store as a shelf and an app get it: created at once, its implementation (the
 * writer, with version bumps, locks and the YAML editor) imported on the first call. Every
 * method is async already, so a process that only loads and plans never loads the write
 * stack.
 */
import { fileWriteState } from "./file-write-state.js";
import type { SkillStore, SkillStoreOptions } from "./writer.js";

export function createSkillStore(options: SkillStoreOptions): SkillStore {
  // Made here, not by the writer, so that `history` and `ledger` are there before the first write.
  const state = options.state ?? fileWriteState(options.stateDir, options.fs);
  let loading: Promise<SkillStore> | undefined;
  const writer = () =>
    (loading ??= import("./writer.js").then((writerModule) =>
      writerModule.createSkillStore({ ...options, state }),
    ));
  return {
    history: state.history,
    ledger: state.ledger,
    write: async (...args) => (await writer()).write(...args),
    commit: async (...args) => (await writer()).commit(...args),
    versions: async (...args) => (await writer()).versions(...args),
    read: async (...args) => (await writer()).read(...args),
    resolve: async (...args) => (await writer()).resolve(...args),
    diff: async (...args) => (await writer()).diff(...args),
    rollback: async (...args) => (await writer()).rollback(...args),
    recordExternalChange: async (...args) => (await writer()).recordExternalChange(...args),
  };
}
