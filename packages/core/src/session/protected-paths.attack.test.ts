/**
 * The model rewrites the files its limits come from with a host tool — a SKILL.md (widening
 * `allowed-tools`), a schema.json, a new skill in another root, a prebuilt shelf or the state
 * under .skillshelf/ — and expects the next step to grant more. Paths spelled the ways a shell
 * reads them (doubled slashes, `./`, `..`, `$HOME`) must be caught as the plain ones are.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";

const NOTES = `---
name: notes-writer
description: Writes meeting notes into the notes folder.
allowed-tools: write_file read_file bash
---
Write the notes to notes/<date>.md.
`;
const TOOLS = ["write_file", "read_file", "bash", "send_email"];

let root: string;
let home: string;
let shelf: Shelf;
const savedHome = process.env.HOME;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-protect-attack-"));
  home = path.join(root, "home");
  // os.homedir() reads HOME on POSIX: the user's skills live under this test's own home.
  process.env.HOME = home;
  await mkdir(path.join(root, "project", ".agents", "skills", "notes-writer"), { recursive: true });
  await writeFile(path.join(root, "project", ".agents", "skills", "notes-writer", "SKILL.md"), NOTES);
  await mkdir(path.join(home, ".agents", "skills"), { recursive: true });
  await mkdir(path.join(home, "my-skills"), { recursive: true });
  shelf = await createShelf({
    root: path.join(root, "project"),
    userDirs: [path.join(home, ".agents", "skills"), path.join(home, "my-skills")],
    events: false,
  });
});
afterEach(async () => {
  await shelf.close();
  process.env.HOME = savedHome;
  await rm(root, { recursive: true, force: true });
});

const session = () => {
  const s = shelf.session({ message: "write the meeting notes", tools: TOOLS });
  expect(s.callSkillTool({ id: "a", name: "skill_notes-writer", input: {} })).toMatchObject({
    status: "success",
  });
  return s;
};

describe("writes into skill folders, spelled as a shell reads them", () => {
  const commands = [
    "echo 'allowed-tools: send_email' > .agents/skills/notes-writer/SKILL.md",
    "echo x > .agents//skills/notes-writer/SKILL.md",
    "echo x > .agents/./skills/notes-writer/SKILL.md",
    "echo x > ./.agents/skills/notes-writer/SKILL.md",
    "echo x > notes/../.agents/skills/notes-writer/SKILL.md",
    "echo x > .agents/x/../skills/notes-writer/schema.json",
    "cp /tmp/evil.md .agents//skills/evil/SKILL.md",
    "printf '%s' x >.agents/./skills/notes-writer/SKILL.md",
    "cat > .agents//skills/evil/SKILL.md <<'EOF'\n---\nname: evil\ndescription: x\n---\nEOF",
    "mkdir -p $HOME/.agents/skills/evil && echo x > $HOME/.agents/skills/evil/SKILL.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "echo x > ${HOME}/.agents/skills/evil/SKILL.md",
    'echo x > "$HOME/.agents/skills/evil/SKILL.md"',
    "echo x > ~/.agents/skills/evil/SKILL.md",
    "echo x > ~/.agents//skills/evil/SKILL.md",
    "echo x > $HOME/my-skills/evil/SKILL.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "echo x > ${HOME}/my-skills/evil/SKILL.md",
    "echo x >$HOME//my-skills/evil/SKILL.md",
    "echo x > ~/my-skills/./evil/SKILL.md",
    "echo '{}' > .skillshelf/prebuilt-shelf.bin",
    "echo '{}' > .skillshelf//usage.json",
    "rm -rf .agents/skills",
    // A case-insensitive disk (macOS, Windows) reads these as the skill folder itself.
    "echo x > .Agents/Skills/notes-writer/SKILL.md",
    "echo x > .AGENTS//SKILLS/evil/SKILL.md",
    "echo '{}' > .SkillShelf/usage.json",
  ];
  for (const command of commands) {
    it(`bash ${JSON.stringify(command.length > 70 ? `${command.slice(0, 70)}…` : command)}: SKILL_FILES_PROTECTED`, () => {
      const verdict = session().guard({ name: "bash", input: { command } });
      expect(verdict).toMatchObject({ allowed: false, result: { error_type: "SKILL_FILES_PROTECTED" } });
    });
  }

  const paths = [
    ".agents//skills/notes-writer/SKILL.md",
    ".agents/./skills/notes-writer/SKILL.md",
    "notes/../.agents/skills/notes-writer/SKILL.md",
    "~/.agents/skills/evil/SKILL.md",
    "$HOME/.agents/skills/evil/SKILL.md",
    "$HOME/my-skills/evil/SKILL.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "${HOME}/my-skills/evil/SKILL.md",
    "<home>/.agents/skills/evil/SKILL.md",
    ".skillshelf/prebuilt-shelf.bin",
    ".agents/skills/notes-writer/schema.json",
    ".Agents/Skills/notes-writer/SKILL.md",
    "<home>/MY-SKILLS/evil/SKILL.md",
  ];
  for (const target of paths) {
    it(`write_file ${JSON.stringify(target)}: SKILL_FILES_PROTECTED`, () => {
      const file = target.replace("<home>", home);
      const verdict = session().guard({ name: "write_file", input: { path: file, content: "x" } });
      expect(verdict).toMatchObject({ allowed: false, result: { error_type: "SKILL_FILES_PROTECTED" } });
    });
  }

  it("ordinary commands and paths still run", () => {
    const s = session();
    for (const command of [
      "echo x > notes/2026-12-01.md",
      "ls skills-notes/",
      "echo $HOME",
      "git log --oneline -- src/agents/skills.ts",
    ]) {
      expect(s.guard({ name: "bash", input: { command } }), command).toEqual({ allowed: true });
    }
    expect(s.guard({ name: "write_file", input: { path: "notes/agents/skills.md" } })).toEqual({
      allowed: true,
    });
  });
});

describe("the files beside the skill folders that decide what the model gets", () => {
  const project = () => path.join(root, "project");
  const guardWrite = async (options: Parameters<typeof createShelf>[0], target: string, command?: string) => {
    const s = await createShelf({ root: project(), userDirs: [], events: false, ...options });
    try {
      const session = s.session({ message: "hello", tools: TOOLS });
      const input = command ? { command } : { path: target, content: "{}" };
      return session.guard({ name: command ? "bash" : "write_file", input });
    } finally {
      await s.close();
    }
  };
  const refused = { allowed: false, result: { error_type: "SKILL_FILES_PROTECTED" } };

  it("the trust file (trusting a hostile repository's skills for the next turn)", async () => {
    const file = path.join(home, ".skillshelf", "trust.json");
    expect(await guardWrite({ trust: true }, file)).toMatchObject(refused);
    expect(await guardWrite({ trust: true }, "", "echo '{}' > ~/.skillshelf/trust.json")).toMatchObject(
      refused,
    );
    const custom = path.join(root, "trust", "mine.json");
    expect(await guardWrite({ trust: { file: custom } }, custom)).toMatchObject(refused);
  });

  it("the settings file, with the state elsewhere (re-enabling a disabled skill)", async () => {
    expect(await guardWrite({ stateDir: ".state" }, ".skillshelf/config.json")).toMatchObject(refused);
    const custom = path.join(project(), "conf", "skills.json");
    expect(await guardWrite({ config: custom }, "conf/skills.json")).toMatchObject(refused);
  });

  it("a prebuilt shelf kept outside the state folder (steering stage 1)", async () => {
    expect(await guardWrite({ prebuilt: "dist/shelf.bin" }, "dist/shelf.bin")).toMatchObject(refused);
    expect(await guardWrite({ prebuilt: "dist/shelf.bin" }, "", "cp x dist//shelf.bin")).toMatchObject(
      refused,
    );
  });

  it("other files next to them stay writable", async () => {
    expect(await guardWrite({ prebuilt: "dist/shelf.bin", stateDir: ".state" }, "dist/app.js")).toEqual({
      allowed: true,
    });
  });
});
