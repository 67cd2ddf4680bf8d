import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "./main.js";
import { capture } from "./test-utils/capture.js";

const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("--version", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillshelf-version-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([["--version"], ["-V"], ["validate", "--version"], ["list", "--version"], ["eval", "-V"]])(
    "skillshelf %s %s prints the package version and exits 0",
    async (...argv) => {
      const cap = capture(dir);
      expect(await main(argv, cap.ctx)).toBe(0);
      expect(cap.out()).toBe(`${manifest.version}\n`);
      expect(cap.err()).toBe("");
    },
  );

  it("is not taken from a later argument (a message may say --version)", async () => {
    const cap = capture(dir);
    await main(["match", "--no-builtins", "--", "what does --version print"], cap.ctx);
    expect(cap.out()).not.toBe(`${manifest.version}\n`);
  });
});
