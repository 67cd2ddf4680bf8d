/**
 * The write protection reads every argument of a guarded call, so its cost must grow with
 * the argument's length, not with its square: a one-line minified file (JSON, bundled JS)
 * is one long word full of quotes and braces, and each of them must not read the word anew.
 * Each case would take minutes if it did; the default test timeout is the bound.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { protectedPaths } from "./protected-paths.js";

let project: string;
let skills: string;

beforeEach(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), "skillshelf-protect-cost-"));
  skills = path.join(project, ".agents", "skills");
  await mkdir(path.join(skills, "notes-writer"), { recursive: true });
  await writeFile(path.join(skills, "notes-writer", "SKILL.md"), "---\nname: notes-writer\n---\n");
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

const KB300 = 300 * 1024;
const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

describe("the write protection on one long word", () => {
  it("a 300 KB line of minified code with quotes in every word is read once", () => {
    const guard = protectedPaths([skills], project);
    const content = repeatTo('e["k"]&&f(e["v"]);', KB300);
    expect(guard.find({ path: "dist/app.min.js", content })).toBeUndefined();
    // The same line still names the folder when the last word spells it with quotes.
    expect(guard.find({ path: "dist/app.min.js", content: `${content}.ag'ents'/skills/x` })).toBe(skills);
  });

  it("a 300 KB minified JSON written with write_file is read once", () => {
    const guard = protectedPaths([skills], project);
    const record = JSON.stringify({ id: 1, name: "a", tags: ["x", "y"], at: { k: "v" } });
    const content = `[${repeatTo(`${record},`, KB300)}${record}]`;
    expect(guard.find({ path: "data/records.json", content })).toBeUndefined();
  });

  it("a 300 KB word of braces is expanded once", () => {
    const guard = protectedPaths([skills], project);
    const command = `echo ${repeatTo("{a,b}", KB300)}`;
    expect(guard.find({ command })).toBeUndefined();
    expect(guard.find({ command: `${command} {.agents,x}/skills/x` })).toBe(skills);
  });
});

describe("the write protection on options with an argument glued to them", () => {
  // `-<letters><i>/a/../b/../c`: every split after a letter is a path with `..` to walk.
  const gluedWords = (count: number) =>
    Array.from({ length: count }, (_, i) => `-abcdefghijklmnopqrstuvwxyzABCDE${i}/a/../b/../c`).join(" ");

  it("64 commands of 16 KB of glued options are read as text, not walked on disk split by split", () => {
    const guard = protectedPaths([skills], project);
    const command = gluedWords(330);
    expect(command.length).toBeLessThan(16_384);
    expect(guard.find({ commands: Array.from({ length: 64 }, () => command) })).toBeUndefined();
  });

  it("a glued argument that leaves its first folder by `..` is still read", () => {
    const guard = protectedPaths([skills], project);
    expect(guard.find({ command: "cp -rtx/../.agents/skills evil" })).toBe(skills);
    expect(guard.find({ command: "cp -rtx/y/../../.agents/skills/notes-writer evil" })).toBe(skills);
    expect(guard.find({ command: "cp -rt.agents/skills/../skills evil" })).toBe(skills);
  });

  it("a glued argument through a symlink in the project is still followed", async () => {
    await symlink(path.join(".agents", "skills"), path.join(project, "link"));
    const guard = protectedPaths([skills], project);
    expect(guard.find({ command: "cp -rtlink/notes-writer evil/SKILL.md" })).toBe(skills);
    expect(guard.find({ command: "cp -tlink evil/SKILL.md" })).toBe(skills);
  });

  it("ordinary options and numbers glued to a minus still run", () => {
    const guard = protectedPaths([skills], project);
    const css = ".a{-webkit-transition:all 1s;-moz-box-sizing:border-box}\n".repeat(120);
    const coordinates = JSON.stringify(Array.from({ length: 800 }, (_, i) => [-122.4194 - i, -37.77]));
    expect(guard.find({ path: "src/a.css", content: css })).toBeUndefined();
    expect(guard.find({ path: "data/points.json", content: coordinates })).toBeUndefined();
    expect(
      guard.find({ command: "git commit -am 'fix' && gcc -Isrc/include -O2 -o out main.c" }),
    ).toBeUndefined();
  });

  it("more glued arguments on disk than it walks in one call: refused unread", async () => {
    // Names the splits of one option word find on disk, so each split is walked.
    for (let n = 1; n < 32; n++) await writeFile(path.join(project, "a".repeat(n)), "");
    const guard = protectedPaths([skills], project);
    const command = Array.from({ length: 40 }, () => `-${"a".repeat(32)}/x`).join(" ");
    expect(guard.find({ command })).toBe(skills);
    expect(guard.find({ command: `-${"a".repeat(32)}/x` })).toBeUndefined();
  });
});

describe("glued arguments when the project itself is protected", () => {
  it("any relative glued argument is inside it", () => {
    const guard = protectedPaths([project], project);
    expect(guard.find({ command: "cp -tnotes/x evil.md" })).toBe(project);
  });
});
