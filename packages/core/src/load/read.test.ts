import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSkillFile } from "../parse/read-skill-file.js";
import type { ParseResult } from "../types.js";
import { readSkillFiles } from "./read.js";
import { type Signature, signatureOf } from "./signature.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

async function readAll(items: Array<{ file: string; sig?: Signature }>) {
  const results: Array<{ sig: Signature | undefined; result: ParseResult; truncated: boolean }> = [];
  await readSkillFiles(
    items,
    (item) => ({ ...item, options: { path: item.file } }),
    (i, sig, result, start) => {
      results[i] = { sig, result, truncated: start?.truncated === true };
    },
  );
  return results;
}

describe("readSkillFiles", () => {
  it("reads files of any size through one shared buffer, each as readSkillFile does (a long body cut to the start the loader keeps)", async () => {
    const dir = await tempDir();
    const big = `${"Long reference line with ünïcödé — and more.\n".repeat(8_000)}`; // ≈ 400 KB
    const files = [
      await writeSkill(dir, "small-a"),
      await writeSkill(dir, "big", skillText("big", "A big one.", "") + big),
      await writeSkill(dir, "small-b"),
      await writeSkill(dir, "medium", skillText("medium") + big.slice(0, 70_000)),
    ];
    // More files than one batch, so batches and the event-loop turns between them are crossed.
    for (let i = 0; i < 70; i++) files.push(await writeSkill(dir, `skill-${i}`));
    const results = await readAll(files.map((file) => ({ file })));
    expect(results).toHaveLength(files.length);
    for (const [i, file] of files.entries()) {
      const whole = await readSkillFile(file);
      const { result, truncated } = results[i]!;
      if (truncated) {
        expect(whole.skill!.body.startsWith(result.skill!.body), file).toBe(true);
        expect({ ...result, skill: { ...result.skill, body: "" } }, file).toStrictEqual({
          ...whole,
          skill: { ...whole.skill, body: "" },
        });
      } else {
        expect(result, file).toStrictEqual(whole);
      }
      expect(results[i]!.sig).toEqual(signatureOf(file));
    }
    // The two long bodies are cut to their start (more than the 3,000 characters the loader keeps).
    expect(results.map((r) => r.truncated).filter(Boolean)).toHaveLength(2);
    expect(results[1]!.result.skill!.body.length).toBeGreaterThan(3_001);
    expect(results[1]!.result.skill!.body.length).toBeLessThan(20_000);
  });

  it("a file that grew since its signature was taken is read whole, not cut at the old size", async () => {
    const dir = await tempDir();
    const file = await writeSkill(dir, "grows");
    const stale = signatureOf(file)!;
    await fs.appendFile(file, "\nAppended after the stat.\n");
    const [read] = await readAll([{ file, sig: stale }]);
    expect(read!.result.skill!.body).toContain("Appended after the stat.");
    // The signature reported is the one taken before the read: the next refresh sees the change.
    expect(read!.sig).toBe(stale);
  });

  it("a file that shrank or vanished since its signature is reported, not read past its end", async () => {
    const dir = await tempDir();
    const shrinks = await writeSkill(dir, "shrinks");
    const vanishes = await writeSkill(dir, "vanishes");
    const sigs = [signatureOf(shrinks)!, signatureOf(vanishes)!];
    await fs.writeFile(shrinks, skillText("shrinks", "Short."));
    await fs.rm(path.dirname(vanishes), { recursive: true });
    const [a, b] = await readAll([
      { file: shrinks, sig: sigs[0] },
      { file: vanishes, sig: sigs[1] },
    ]);
    expect(a!.result.skill?.description).toBe("Short.");
    expect(b!.result.skill).toBeUndefined();
    expect(b!.result.diagnostics.map((d) => d.code)).toEqual(["read-error"]);
  });
});
