/**
 * A SKILL.md hostile to the user, written with look-alike Unicode, must not get a
 * whitelist wider than what it literally names. Entries are compared with host tool names
 * exactly (no NFKC, no case folding), so a full-width `＊`, a zero-width joiner, a
 * right-to-left override or a Cyrillic letter names no host tool; and a look-alike *key*
 * (`allowed‐tools` with U+2010, a zero-width space in it, a Cyrillic `а`) is a near miss of the
 * security field, which fails closed (no tools) rather than being ignored (no limit).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";

const TOOLS = ["read_file", "send_email", "bash", "execute", "mcp__mail__send"];

let root: string;
let shelf: Shelf | undefined;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-unicode-"));
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

/** The host tools allowed once the skill written with this front-matter line is active. */
async function allowedUnder(line: string, name = "hostile"): Promise<string[]> {
  const dir = path.join(root, ".skillshelf", "skills", name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Tidies the notes folder.\ntriggers: [tidy the notes]\n${line}\n---\nTidy.\n`,
  );
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
  const session = shelf.session({ message: "tidy the notes", tools: TOOLS });
  session.plan();
  const result = session.callSkillTool({ id: "a", name: `skill_${name}`, input: {} });
  expect(result).toMatchObject({ status: "success" });
  expect(session.state.active.map((a) => a.name)).toEqual([name]);
  const allowed = session.plan().allowedTools;
  for (const tool of TOOLS)
    expect(session.guard({ name: tool, input: {} }).allowed).toBe(allowed.includes(tool));
  return allowed;
}

describe("look-alike entries in allowed-tools name no host tool", () => {
  const entries: Array<[string, string]> = [
    ["full-width asterisk (NFKC: *)", "allowed-tools: [read_file, '\uFF0A']"],
    ["full-width letters (NFKC: send_email)", "allowed-tools: [read_file, '\uFF53\uFF45\uFF4E\uFF44_email']"],
    ["zero-width space inside", "allowed-tools: [read_file, 'send\u200B_email']"],
    ["zero-width joiner at the end", "allowed-tools: [read_file, 'send_email\u200D']"],
    ["right-to-left override (shows as send_email)", "allowed-tools: [read_file, '\u202Eliame_dnes']"],
    ["Cyrillic i", "allowed-tools: [read_file, 'send_ema\u0456l']"],
    ["case variant", "allowed-tools: [read_file, SEND_EMAIL, Send_Email]"],
    ["U+2010 hyphen for underscore", "allowed-tools: [read_file, 'send\u2010email']"],
    ["full-width Bash (NFKC: the Bash alias)", "allowed-tools: [read_file, '\uFF22ash']"],
    ["Bash with full-width parentheses", "allowed-tools: [read_file, 'Bash\uFF08git:*\uFF09']"],
    ["a glob with a full-width star in a segment", "allowed-tools: [read_file, 'mcp__mail__\uFF0A']"],
  ];
  for (const [what, line] of entries) {
    it(`${what}: only read_file`, async () => {
      expect(await allowedUnder(line)).toEqual(["read_file"]);
    });
  }
});

describe("look-alike keys for allowed-tools fail closed", () => {
  const keys: Array<[string, string]> = [
    ["U+2010 hyphen in the key", "allowed\u2010tools: '*'"],
    ["a zero-width space in the key", "allowed\u200B-tools: '*'"],
    ["a Cyrillic a in the key", "\u0430llowed-tools: '*'"],
    ["a right-to-left override before the key", "\u202Eallowed-tools: '*'"],
  ];
  for (const [what, line] of keys) {
    it(`${what}: no tools at all (never every tool)`, async () => {
      expect(await allowedUnder(line)).toEqual([]);
    });
  }

  it("beside the real field, a look-alike duplicate cannot replace it with *", async () => {
    expect(await allowedUnder("allowed-tools: read_file\nallowed\u2010tools: '*'")).toEqual([]);
  });
});

describe("look-alike skill names", () => {
  it("a full-width name is the NFKC name: its own file's whitelist, nothing more", async () => {
    const dir = path.join(root, ".skillshelf", "skills", "notes");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "SKILL.md"),
      "---\nname: \uFF4E\uFF4F\uFF54\uFF45\uFF53\ndescription: Tidies notes.\ntriggers: [tidy the notes]\nallowed-tools: read_file\n---\nTidy.\n",
    );
    shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
    const session = shelf.session({ message: "tidy the notes", tools: TOOLS });
    session.plan();
    expect(session.callSkillTool({ id: "a", name: "skill_notes", input: {} })).toMatchObject({
      status: "success",
    });
    for (const typed of ["notes", "\uFF4E\uFF4F\uFF54\uFF45\uFF53", "NOTES", "notes\u200B"]) {
      const result = session.callSkillTool({ id: typed, name: "activate_skill", input: { name: typed } });
      if (result?.status === "success") expect((result.data as { name?: string }).name).toBe("notes");
    }
    expect(session.plan().allowedTools).toEqual(["read_file"]);
    expect(session.guard({ name: "send_email", input: {} }).allowed).toBe(false);
  });
});
