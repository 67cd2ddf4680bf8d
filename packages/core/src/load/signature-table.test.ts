import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSignature, isUnchanged, sameSignature, signatureOf } from "./signature.js";
import { SignatureTable } from "./signature-table.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-sigtable-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("SignatureTable", () => {
  it("answers as the signature objects do, for a file, a folder, a missing path and none", () => {
    const file = path.join(dir, "SKILL.md");
    fs.writeFileSync(file, "one");
    const missing = path.join(dir, "gone.md");
    const table = new SignatureTable();
    const paths = [file, dir, missing];
    const slots = paths.map((p) => table.add(signatureOf(p)));
    for (const [i, p] of paths.entries()) {
      const sig = signatureOf(p);
      expect(table.get(slots[i]!)).toEqual(sig);
      expect(table.check(p, slots[i]!)).toBe(checkSignature(p, sig));
      expect(table.unchanged(p, slots[i]!)).toBe(isUnchanged(p, sig));
      for (const other of paths) {
        expect(table.same(slots[i]!, signatureOf(other))).toBe(sameSignature(sig, signatureOf(other)));
      }
    }
    fs.writeFileSync(file, "a longer text");
    expect(table.check(file, slots[0]!)).toBe("changed");
    expect(table.unchanged(file, slots[0]!)).toBe(false);
    table.set(slots[0]!, undefined);
    expect(table.get(slots[0]!)).toBeUndefined();
    expect(table.check(file, slots[0]!)).toBe("changed");
    expect(table.unchanged(missing, slots[0]!)).toBe(true);
  });

  it("keeps every slot's numbers exactly as it grows and reuses released slots", () => {
    const table = new SignatureTable();
    const sigOf = (i: number) => ({
      mtimeMs: 1_700_000_000_000.123 + i,
      ctimeMs: 1_700_000_000_001.5 - i,
      size: i * 7,
      ino: 2 ** 52 + i,
      isFile: i % 3 !== 0,
    });
    const slots = Array.from({ length: 3_000 }, (_, i) => table.add(sigOf(i)));
    for (const [i, slot] of slots.entries()) expect(table.get(slot)).toEqual(sigOf(i));
    table.release(slots[10]!);
    const again = table.add(sigOf(99_999));
    expect(again).toBe(slots[10]);
    expect(table.get(again)).toEqual(sigOf(99_999));
    expect(table.get(slots[11]!)).toEqual(sigOf(11));
  });
});
