/**
 * A start from a prebuilt shelf takes the everyday weights of its terms from the file: the
 * first match of the process looks up in the everyday lists only the terms the file does not
 * weigh (the request's new words), where a scanned shelf looks up every term it indexes.
 */
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { ShelfOptions } from "../shelf.js";
import { skillText, tempDir, writeSkill } from "./test-utils/fixtures.js";

const looked = new Set<string>();
vi.mock("../match/everyday-words.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../match/everyday-words.js")>();
  return {
    ...original,
    everydayInformativeness: (term: string) => {
      looked.add(term);
      return original.everydayInformativeness(term);
    },
  };
});

const { createShelf } = await import("../shelf.js");
const { buildPrebuiltShelf } = await import("./prebuilt-build.js");

describe("a prebuilt shelf's stored everyday weights", () => {
  it("are what its first match weighs the shelf's terms by", async () => {
    const root = await tempDir("skillshelf-prebuilt-everyday-");
    const skills = path.join(root, ".skillshelf/skills");
    const options: ShelfOptions = { root, userDirs: [], builtinRoles: false, events: false };
    for (const [name, description] of [
      ["car-service", "Book a service for your car at a garage near you."],
      ["flight-status", "Check whether your flight is on time or delayed."],
      ["hotel-booking", "Book a hotel room for your trip, near the airport."],
    ] as const)
      await writeSkill(skills, name, skillText(name, description));
    await buildPrebuiltShelf({ root, userDirs: [] });

    const scanned = await createShelf({ ...options, prebuilt: false });
    looked.clear();
    scanned.match("is my flight delayed");
    const scannedLooks = looked.size;
    // Not vacuous: a scanned shelf weighs its own terms.
    expect(looked.has("garag")).toBe(true);

    const prebuilt = await createShelf(options);
    looked.clear();
    expect(prebuilt.match("is my flight delayed")).toEqual(scanned.match("is my flight delayed"));
    expect(looked.has("garag")).toBe(false);
    expect(looked.size).toBeLessThan(scannedLooks);
    for (const shelf of [scanned, prebuilt]) await shelf.close();
  });
});
