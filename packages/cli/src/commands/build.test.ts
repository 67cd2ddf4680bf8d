import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

let root: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-build-")));
  const skill = path.join(root, ".skillshelf/skills/release-notes/SKILL.md");
  await fs.mkdir(path.dirname(skill), { recursive: true });
  await fs.writeFile(
    skill,
    "---\nname: release-notes\ndescription: Writes release notes.\nallowed-tools: Read\n---\n\nCollect the merged pull requests.\n",
  );
  const broken = path.join(root, ".skillshelf/skills/broken/SKILL.md");
  await fs.mkdir(path.dirname(broken), { recursive: true });
  await fs.writeFile(broken, "---\nname: broken\n");
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

it("writes the prebuilt shelf where createShelf looks, reports files that do not load, and the shelf uses it", async () => {
  const c = capture(root);
  expect(await main(["build"], c.ctx)).toBe(0);
  expect(c.out()).toMatch(/^Wrote \.skillshelf\/prebuilt-shelf\.bin: 1 skill from 2 files, \d+ KiB\.\n$/u);
  expect(c.err()).toContain("broken/SKILL.md");
  const stored = await fs.readFile(path.join(root, ".skillshelf/prebuilt-shelf.bin"), "latin1");
  expect(stored.startsWith("SKSHELF1")).toBe(true);
  // Paths relative to the root: the built shelf moves with the app.
  expect(stored).toContain('"path":".skillshelf/skills/broken/SKILL.md"');
  expect(stored).toContain('"path":".skillshelf/skills/release-notes/SKILL.md"');
  expect(stored).not.toContain(root);
  const shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
  expect(shelf.skills().map((s) => s.name)).toEqual(["release-notes"]);
  expect(shelf.diagnostics().map((d) => d.code)).not.toContain("prebuilt-unusable");
  await shelf.close();
});

it("--out writes elsewhere; an unwritable place exits 1 with the reason", async () => {
  const c = capture(root);
  expect(await main(["build", "--out", "dist/shelf.bin"], c.ctx)).toBe(0);
  expect((await fs.stat(path.join(root, "dist/shelf.bin"))).isFile()).toBe(true);
  await fs.writeFile(path.join(root, "a-file"), "");
  const bad = capture(root);
  expect(await main(["build", "--out", "a-file/shelf.bin"], bad.ctx)).toBe(1);
  expect(bad.err()).toMatch(/^skillshelf build: cannot write the prebuilt shelf: /u);
});

it("--check: 0 when current; 1 with the reason when out of date, missing or edited", async () => {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-build-check-")));
  const skill = path.join(dir, ".skillshelf/skills/alpha/SKILL.md");
  await fs.mkdir(path.dirname(skill), { recursive: true });
  await fs.writeFile(skill, "---\nname: alpha\ndescription: Does alpha things.\n---\n\nBody.\n");
  const missing = capture(dir);
  expect(await main(["build", "--check"], missing.ctx)).toBe(1);
  expect(missing.err()).toContain("prebuilt-unusable");
  expect(await main(["build"], capture(dir).ctx)).toBe(0);
  const current = capture(dir);
  expect(await main(["build", "--check"], current.ctx)).toBe(0);
  expect(current.out()).toBe(".skillshelf/prebuilt-shelf.bin is current.\n");
  await fs.writeFile(skill, "---\nname: alpha\ndescription: Does alpha things, now more.\n---\n\nBody.\n");
  const stale = capture(dir);
  expect(await main(["build", "--check"], stale.ctx)).toBe(1);
  expect(stale.err()).toContain("prebuilt-stale");
  await fs.rm(dir, { recursive: true, force: true });
});

it("lays the index out for the skills the app's shelf offers: with the builtin roles (default) or --no-builtin-roles", async () => {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-build-roles-")));
  for (const name of ["alpha", "reviewer"]) {
    const skill = path.join(dir, `.skillshelf/skills/${name}/SKILL.md`);
    await fs.mkdir(path.dirname(skill), { recursive: true });
    await fs.writeFile(skill, `---\nname: ${name}\ndescription: Does ${name} things.\n---\n\nBody.\n`);
  }
  // The skills the stored layout is for, by name.
  const laidOut = async () => {
    const bytes = await fs.readFile(path.join(dir, ".skillshelf/prebuilt-shelf.bin"));
    const doc = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString("utf8"));
    return doc.index.layout.skills.map((k: number) => doc.files[k].skill.name).sort();
  };
  // A builtin role takes its name from an ordinary skill, and a role is never offered.
  expect(await main(["build"], capture(dir).ctx)).toBe(0);
  expect(await laidOut()).toEqual(["alpha"]);
  expect(await main(["build", "--no-builtin-roles"], capture(dir).ctx)).toBe(0);
  expect(await laidOut()).toEqual(["alpha", "reviewer"]);
  await fs.rm(dir, { recursive: true, force: true });
});
