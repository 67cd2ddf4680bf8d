/** Four processes recording uses of one skill at once: every increment is counted. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { disposeWriterBuild, spawnWriter, type WriterProcess } from "../history/test-utils/spawn-writer.js";
import { createFileUsageStore } from "./file-store.js";

const PROCESSES = 4;
const USES = 250;

let dir: string | undefined;
const writers: WriterProcess[] = [];
afterAll(async () => {
  for (const writer of writers) writer.child.kill("SIGKILL");
  if (dir) await rm(dir, { recursive: true, force: true });
  await disposeWriterBuild();
});

it(`loses no increment with ${PROCESSES} writing processes`, async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillshelf-usage-concurrent-"));
  writers.push(
    ...(await Promise.all(Array.from({ length: PROCESSES }, () => spawnWriter("usage", dir!, USES)))),
  );
  for (const writer of writers) expect(await writer.nextLine()).toBe("ready");
  for (const writer of writers) writer.child.stdin!.write("go\n");
  for (const writer of writers) expect(await writer.nextLine()).toBe("done");
  expect(createFileUsageStore({ dir }).get("shared")?.count).toBe(PROCESSES * USES);
}, 60_000);

it("a process that exits without flush() or close() still writes the uses it kept back", async () => {
  const exitDir = await mkdtemp(path.join(tmpdir(), "skillshelf-usage-exit-"));
  try {
    const writer = await spawnWriter("usage-exit", exitDir, 3);
    writers.push(writer);
    expect(await writer.exited).toMatchObject({ code: 0 });
    expect(createFileUsageStore({ dir: exitDir }).get("shared")?.count).toBe(3);
  } finally {
    await rm(exitDir, { recursive: true, force: true });
  }
}, 60_000);
