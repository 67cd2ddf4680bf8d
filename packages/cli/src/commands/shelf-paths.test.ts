import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

describe("a shelf path that is not a folder", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillshelf-paths-"));
    await writeFile(join(dir, "a-file"), "not a folder");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["match", "--root", "missing", "does not exist"],
    ["match", "--root", "a-file", "is not a folder"],
    ["catalog", "--project", "missing", "does not exist"],
    ["eval", "--project", "a-file", "is not a folder"],
  ])("skillshelf %s %s %s exits 2: %s", async (command, flag, value, problem) => {
    const cap = capture(dir);
    const args = command === "match" ? [command, "hello", flag, value] : [command, flag, value];
    if (command === "eval") {
      await writeFile(join(dir, "cases.jsonl"), '{"message": "hello", "expect": "none"}\n');
      args.push(join(dir, "cases.jsonl"));
    }
    expect(await main(args, cap.ctx)).toBe(2);
    expect(cap.err()).toContain(`${flag} ${join(dir, value)} ${problem}`);
  });
});
