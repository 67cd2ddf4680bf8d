import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createFileRunStore } from "./file-run-store.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

it("a run that is the first to write into the state folder leaves it a .gitignore that keeps runs out of git", async () => {
  const state = join(await mkdtemp(join(tmpdir(), "skillshelf-runs-")), ".skillshelf");
  dirs.push(state);
  const store = createFileRunStore(state);
  await store.append({
    type: "run_start",
    run_id: "run_1",
    skill: "digest",
    at: new Date().toISOString(),
  } as never);
  expect(await readFile(join(state, ".gitignore"), "utf8")).toMatch(/^workflows\/$/m);
});
