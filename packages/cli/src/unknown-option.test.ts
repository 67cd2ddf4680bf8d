import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "./main.js";
import { capture } from "./test-utils/capture.js";

describe("an unknown option", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillshelf-flags-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["list", "--jsn", "--json"],
    ["match", "--limt", "--limit"],
    ["validate", "--strct", "--strict"],
  ])("skillshelf %s %s suggests %s and exits 2", async (command, typo, suggestion) => {
    const cap = capture(dir);
    expect(await main([command, typo], cap.ctx)).toBe(2);
    expect(cap.err()).toContain(`unknown option '${typo}'; did you mean '${suggestion}'?`);
    expect(cap.out()).toBe("");
  });

  it("suggests nothing when no option is close", async () => {
    const cap = capture(dir);
    expect(await main(["list", "--frobnicate-everything"], cap.ctx)).toBe(2);
    expect(cap.err()).toContain("unknown option '--frobnicate-everything'");
    expect(cap.err()).not.toContain("did you mean");
  });
});
