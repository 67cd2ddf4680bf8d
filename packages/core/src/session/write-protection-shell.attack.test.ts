/**
 * The write protection against spellings the shell (or a program's string literal) puts
 * together before a path exists: quotes and escapes inside a word, ANSI-C `$'…'` escapes,
 * string concatenation, an option's argument glued to its letter (`-t.agents`), a simple
 * variable, and `..` after a symlink already on disk (the system walks `..` from where the
 * link leads, not from the link).
 */
import { describe, expect, it } from "vitest";
import { protectedProject, refused } from "./test-utils/protected-project.js";

const { bash, session, write } = protectedProject({
  userDir: ".agents/skills",
  links: true,
  tools: ["write_file", "read_file", "bash", "send_email"],
});

describe("the write protection, as the shell puts words together", () => {
  const commands = [
    // Quotes and escapes inside one word: the shell joins the parts.
    "echo x > .ag'ents/sk'ills/notes-writer/SKILL.md",
    'echo x > .ag"ents"/skills/notes-writer/SKILL.md',
    "echo x > .ag\\ents/sk\\ills/notes-writer/SKILL.md",
    "echo x > ~/.ag'ents'/skills/evil/SKILL.md",
    "eval 'echo x > .ag''ents/skills/notes-writer/SKILL.md'",
    `bash -c "echo x > '.ag'\\"ents\\"/skills/notes-writer/SKILL.md"`,
    // ANSI-C quoting decodes escapes.
    "echo x > $'\\x2eagents'/skills/notes-writer/SKILL.md",
    "echo x > $'\\056agents/skills'/notes-writer/SKILL.md",
    // String concatenation in a program's source.
    `node -e "require('fs').cpSync('evil', '.age' + 'nts', {recursive: true})"`,
    `python3 -c "open('.age' 'nts/skills/notes-writer/SKILL.md','w').write('x')"`,
    // An option's argument glued to its letter.
    "cp -r evil/skills -t.agents",
    "cp -rt.agents evil/skills",
    "mv -t.agents evil/skills",
    "tar -xf evil.tar -C.agents",
    // A simple variable put together with text.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
    "D=.age; echo x > ${D}nts/skills/notes-writer/SKILL.md",
    "D='.age'; echo x > \"$D\"nts/skills/notes-writer/SKILL.md",
    // Braces the shell spells out: a branch with a leading dot, a sequence.
    "cp evil.md {.agents,x}/skills/notes-writer/SKILL.md",
    "cp evil.md {.a,}gents/skills/notes-writer/SKILL.md",
    "cp -r evil {.agents,}",
    "echo x > .agents/sk{a..z}lls/notes-writer/SKILL.md",
    // A line continuation joins two lines into one word.
    "echo x > .agents/ski\\\nlls/notes-writer/SKILL.md",
    // `..` after a symlink the repository carries: the system goes up from the link's target.
    "echo x > notes/shortcut/../skills/notes-writer/SKILL.md",
  ];
  for (const command of commands) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  it('write_file "notes/shortcut/../skills/notes-writer/SKILL.md": SKILL_FILES_PROTECTED', () => {
    expect(write("notes/shortcut/../skills/notes-writer/SKILL.md")).toMatchObject(refused);
  });

  // Spellings that held on 9bbb19e, kept as guards.
  const held = [
    "echo x > .agents''/skills/notes-writer/SKILL.md",
    "echo x > $'.agents/skills'/notes-writer/SKILL.md",
    "install -Dt.agents/skills/notes-writer evil.md",
    "cp --target-directory=.agents/skills/notes-writer evil.md",
    "rsync -a evil/ .agents/",
    "cp -a evil/. .agents",
    "find .agents -name SKILL.md -exec sed -i s/x/y/ {} +",
    "echo .agents/skills/notes-writer/SKILL.md | xargs rm",
    "perl -pi -e s/x/y/ .agents/skills/notes-writer/SKILL.md",
    "awk '{print}' evil > .agents/skills/notes-writer/SKILL.md",
    "cat <<< x > .agents/skills/notes-writer/SKILL.md",
    "env FOO=1 cp evil.md .agents/skills/notes-writer/SKILL.md",
    "sudo cp evil.md .agents/skills/notes-writer/SKILL.md",
    "echo x > .agents\\skills\\notes-writer\\SKILL.md",
    "echo x > .AGENTS/SKILLS/notes-writer/SKILL.md",
    "echo x>.agents/skills/notes-writer/SKILL.md",
    "git apply <<'EOF'\n--- a/.agents/skills/notes-writer/SKILL.md\n+++ b/.agents/skills/notes-writer/SKILL.md\n@@ -1 +1 @@\n-x\n+y\nEOF",
    "patch -p1 <<'EOF'\n--- a/x/.agents/skills/notes-writer/SKILL.md\n+++ b/x/.agents/skills/notes-writer/SKILL.md\nEOF",
    "echo x > .skillshelf/usage.json",
    "echo x > ./.skillshelf/history/x",
    'echo x > "$HOME"/.agents/skills/evil/SKILL.md',
    "cd ~ && echo x > .agents/skills/evil/SKILL.md",
    "mkdir -p .ag{e,}nts",
    "ln -s /tmp/evil .agents/skills/evil",
    "cp evil.md .age{nts,x}/skills/notes-writer/SKILL.md",
    'echo x > $".agents"/skills/notes-writer/SKILL.md',
    "echo x | tee .agents/skills/notes-writer/SKILL.md",
    "echo x >| .agents/skills/notes-writer/SKILL.md",
    "cd .skillshelf; echo x > usage.json",
    "pushd .agents; echo x > skills/evil/SKILL.md",
    "git -C .agents checkout -- .",
    "echo x > /proc/self/cwd/.agents/skills/notes-writer/SKILL.md",
  ];
  for (const command of held) {
    it(`bash ${JSON.stringify(command)}: SKILL_FILES_PROTECTED (held)`, () => {
      expect(bash(command)).toMatchObject(refused);
    });
  }

  it("ordinary quoting, options, variables and `..` still run", () => {
    for (const command of [
      "git commit -m 'fix: the parser' && ls -la",
      'grep -rn "agents" notes/',
      "cp -r src -t dist",
      "tar -xzf build.tar.gz -Cdist",
      "D=dist; cp -r src $D/",
      "echo $'line\\nnext' > notes/today.md",
      `node -e "console.log('a' + 'b')"`,
      "cd notes/.. && ls",
      "cp src/{a,b,c}.ts dist/ && echo {1..3}",
      "echo one \\\n  two > notes/today.md",
      "cat notes/shortcut/../../notes/today.md",
      "echo x > notes/../notes/today.md",
    ]) {
      expect(bash(command), command).toEqual({ allowed: true });
    }
  });
});

describe("the write protection reads an argument's keys too", () => {
  // A tool that writes several files takes them as a map from path to content.
  it("a path given as a key of the arguments: SKILL_FILES_PROTECTED", () => {
    const input = {
      files: { "notes/ok.md": "x", ".agents/skills/notes-writer/SKILL.md": "allowed-tools: bash" },
    };
    expect(session().guard({ name: "write_file", input })).toMatchObject(refused);
  });

  it("ordinary keys still run", () => {
    const input = { files: { "notes/a.md": "x", "notes/b.md": "y" }, mode: "overwrite" };
    expect(session().guard({ name: "write_file", input })).toEqual({ allowed: true });
  });
});
