/**
 * The default run store: `<state>/workflows/<run_id>.json` (the checkpoint, replaced by
 * atomic rename, so a SIGKILL leaves the old or the new one) and `<run_id>.jsonl` (the run
 * log, one O_APPEND line per record). One executor per run across processes, by the same
 * file lock managed skill writes use: a lock left by a killed process is taken over at once.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ensureStateFolder } from "../events/state-gitignore.js";
import { atomicWrite, removeStaleTempFiles } from "../history/atomic-write.js";
import { withFileLock } from "../history/lock.js";
import { assertRunId, type WorkflowCheckpoint, type WorkflowRunStore } from "./run-store.js";

export const WORKFLOWS_DIR = "workflows";

export function createFileRunStore(stateDir: string): WorkflowRunStore & { readonly dir: string } {
  const dir = join(stateDir, WORKFLOWS_DIR);
  let made: Promise<unknown> | undefined;
  // Checkpoints hold the run's parameters and outputs (the user's words): the state folder's
  // .gitignore keeps them out of git, so the folder gets one when a run is the first to write.
  const ready = () => (made ??= mkdir(dir, { recursive: true }).then(() => ensureStateFolder(stateDir)));
  const fileOf = (runId: string, ext: string) => {
    assertRunId(runId);
    return join(dir, `${runId}${ext}`);
  };
  return {
    dir,
    async load(runId) {
      let text: string;
      try {
        text = await readFile(fileOf(runId, ".json"), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      const checkpoint = JSON.parse(text) as WorkflowCheckpoint;
      if (checkpoint?.format !== 1 || checkpoint.runId !== runId || !Array.isArray(checkpoint.completed)) {
        throw new Error(`the checkpoint of ${runId} is not one skillshelf wrote`);
      }
      return checkpoint;
    },
    async save(checkpoint) {
      await ready();
      await atomicWrite(fileOf(checkpoint.runId, ".json"), `${JSON.stringify(checkpoint)}\n`, {
        mode: 0o600,
      });
    },
    async append(record) {
      await ready();
      await appendFile(fileOf(record.run_id, ".jsonl"), `${JSON.stringify(record)}\n`, { mode: 0o600 });
    },
    async hold(runId, task) {
      await ready();
      return withFileLock(
        fileOf(runId, ".json"),
        async () => {
          // Under the run's lock no live process owns a temp checkpoint: any left was a killed one's.
          await removeStaleTempFiles(dir, `${runId}.json`);
          return task();
        },
        { wait: 30_000 },
      );
    },
  };
}
