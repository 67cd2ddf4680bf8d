/**
 * A user skill folder in the home that the project has no folder of the same name for
 * (`userDirs: ["~/my-skills"]`): the project's relative spellings no longer catch it by
 * accident, so the home must be read in every spelling the shell gives it — `${HOME:-…}`,
 * `${HOME%…}`, `$(echo ~)`, `~+` (the working folder), a variable holding `$HOME`, and a
 * `cd` to the home (or to any folder) before a relative path.
 */
import os from "node:os";
import { describe, expect, it } from "vitest";
import { protectedProject, refused } from "./test-utils/protected-project.js";

const { bash } = protectedProject({ userDir: "my-skills", links: false, tools: ["write_file", "bash"] });

describe("a home skill folder, spelled as the shell spells the home", () => {
  const commands = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "cp evil.md ${HOME:-/x}/my-skills/evil/SKILL.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "cp evil.md ${HOME%/}/my-skills/evil/SKILL.md",
    "cp evil.md $(echo ~)/my-skills/evil/SKILL.md",
    "cp evil.md ~+/../home/my-skills/evil/SKILL.md",
    "H=$HOME; cp evil.md $H/my-skills/evil/SKILL.md",
    "cd && cp /tmp/evil.md my-skills/evil/SKILL.md",
    "cd ~ && cp /tmp/evil.md my-skills/evil/SKILL.md",
    "cd $HOME; rm -rf my-skills",
    'cd "$HOME" && rm -rf my-skills',
    "cd ../home; rm -rf my-skills",
    "pushd ~ > /dev/null; ln -sfn /tmp/evil my-skills",
  ];
  for (const command of commands) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  // More of the shell's spellings of the home: any `${HOME…}` operator, `echo`/`printf` of it
  // in `$(…)` or backticks, and `~` followed by the current user's name.
  for (const command of [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "cp evil.md ${HOME-/x}/my-skills/evil/SKILL.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "cp evil.md ${HOME/#/}/my-skills/evil/SKILL.md",
    "cp evil.md `echo $HOME`/my-skills/evil/SKILL.md",
    "cp evil.md $(printf ~)/my-skills/evil/SKILL.md",
    'cp evil.md $(printf "$HOME")/my-skills/evil/SKILL.md',
    `cp evil.md ~${os.userInfo().username}/my-skills/evil/SKILL.md`,
  ]) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  // A `cd` in more of the forms the shell takes it: inside quotes, with options, followed by a
  // redirection or a comment, one after another, through a variable or a joined word, and
  // the working folder spelled out after it.
  for (const command of [
    "sh -c 'cd ~ && rm -rf my-skills'",
    'bash -c "cd ~; rm -rf my-skills"',
    "cd -P ~ && rm -rf my-skills",
    "cd -- ~ && rm -rf my-skills",
    "cd ~ 2>/dev/null && rm -rf my-skills",
    "cd ~ # the home\nrm -rf my-skills",
    "cd ..; cd home; rm -rf my-skills",
    "H=$HOME; cd $H; rm -rf my-skills",
    "cd ~ && rm -rf my\\-skills",
    "cd ~ && rm -rf my''-skills",
    "cd ~ && rm -rf {my-skills,x}",
    'cd ~ && rm -rf "$PWD/my-skills"',
    "cd ~ && rm -rf $(pwd)/my-skills",
    "cd ~ && rm -rf ~+/my-skills",
  ]) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  // Held on 9bbb19e, kept as guards.
  for (const command of [
    "cp evil.md ~/my-skills/evil/SKILL.md",
    "cp evil.md $HOME/my-skills/evil/SKILL.md",
    'cp evil.md "$HOME"/my-skills/evil/SKILL.md',
    "rm -rf ~/my-skills",
  ]) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED (held)`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  it("ordinary commands after a cd still run", () => {
    for (const command of [
      "cd ~ && ls",
      "cd notes && echo x > today.md",
      "cd ~/projects/app && npm test",
      "cd ~ && cd projects && rm -rf build",
      'cd notes && cat "$PWD/today.md" && git log -1 2>/dev/null',
      "sh -c 'cd notes && rm -rf old'",
      "echo ~ && echo $HOME",
      `echo ~${os.userInfo().username}x/notes`,
    ]) {
      expect(bash(command), command).toEqual({ allowed: true });
    }
  });
});
