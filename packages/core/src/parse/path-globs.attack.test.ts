/**
 * A hostile skill's `paths` globs against the host's time: picomatch compiles a glob to a
 * backtracking regex, and `*a*a*a*a*b` or `**` four times over took seconds on one long path
 * (a message may mention 64, on every model call). On RE2 each runs in linear time, with
 * picomatch's meaning for the globs skills write (the differential below).
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob-re2.js";
import { matchesSkillPaths, mentionedPaths } from "./path-globs.js";

describe("hostile paths globs", () => {
  const hostile = [
    `${"*a".repeat(12)}*b`,
    `${"**/a/".repeat(8)}b`,
    `${"*".repeat(100)}b`,
    `${"?*".repeat(60)}b`,
    `${"+(a|aa)".repeat(10)}b`,
    `${"{a,aa,aaa}*".repeat(10)}b`,
    `${"*(a|a)".repeat(12)}b`,
  ];
  it("every one returns on long mentioned paths (the old engine took seconds per path)", () => {
    const skill = { paths: hostile };
    const message = [`${"a".repeat(500)}.ts`, `${"a/".repeat(250)}c`, `src/${"a".repeat(400)}/x.ts`].join(
      " ",
    );
    const files = mentionedPaths(message);
    expect(files).toHaveLength(3);
    expect(matchesSkillPaths(skill, files)).toBe(false);
    // Each glob still means what it says.
    expect(matchesSkillPaths({ paths: [`${"*a".repeat(12)}*b`] }, [`${"a".repeat(12)}b`])).toBe(true);
    expect(matchesSkillPaths({ paths: [`${"**/a/".repeat(8)}b`] }, [`${"a/".repeat(8)}b`])).toBe(true);
  });
});

describe("the RE2 globs mean what picomatch's did", () => {
  const globs = [
    "*.py",
    "*.{ts,tsx}",
    "src/**/*.ts",
    "src/**",
    "src/*",
    "**",
    "**/",
    "**/*.md",
    "**/test/**",
    "**/node_modules/**",
    "a/**/b",
    "{docs,notes}/*.md",
    "{src/lib,test}/**/*.js",
    "{a,{b,c}}.md",
    "a{1..3}.md",
    "[abc].md",
    "*.[jt]s",
    "?.md",
    "file?.txt",
    "Dockerfile",
    ".env",
    ".github/workflows/*.yml",
    "*",
    "a*",
    "*test*",
    "*.test.*",
    "@(a|b).md",
    "?(a|b).md",
    "+(a|b).md",
    "*(a|b).md",
    "!*.md",
    "docs/*.md",
    "src/[!_]*.ts",
    "**/*.{js,mjs,cjs}",
    "pkg/*/src/**/*.ts",
    "ünï/*.md",
    "a b/*.md",
    "x+y/*.md",
    "$dir/*.md",
    "(x)/*.md",
    "(a|b).md",
    "a|b.md",
    "x(y.md",
    "[!a].md",
    "src/[^_]*.ts",
    "[a-c].md",
    "*.md/",
  ];
  const paths = [
    "app.py",
    "src/app.py",
    ".py",
    "x.ts",
    "x.tsx",
    "src/app.ts",
    "src/deep/er/x.ts",
    "src",
    "src/",
    "src/a",
    "src/a/b",
    "lib/app.ts",
    "README.md",
    "docs/guide.md",
    "notes/plan.md",
    "docs/a/b.md",
    "test/x/y",
    "a/test/b",
    "node_modules/x",
    "a/node_modules/b/c",
    "a/b",
    "a/x/b",
    "a/x/y/b",
    "src/lib/x.js",
    "test/a/b.js",
    "a.md",
    "b.md",
    "c.md",
    "d.md",
    "a2.md",
    "a4.md",
    "x.js",
    "a/.b/c.ts",
    ".env",
    "cfg/.env",
    ".github/workflows/ci.yml",
    "Dockerfile",
    "ops/Dockerfile",
    "file1.txt",
    "file12.txt",
    "my.test.ts",
    "attest.md",
    "ab.md",
    "aab.md",
    "src/_x.ts",
    "src/x.ts",
    "x.mjs",
    "pkg/core/src/a/b.ts",
    "pkg/core/lib/a.ts",
    "ünï/x.md",
    "a b/x.md",
    "x+y/z.md",
    "$dir/z.md",
    "(x)/z.md",
    "(a|b).md",
    "a|b.md",
    "x(y.md",
    "!.md",
    "[!a].md",
    "a/b.md/",
    "src/!x.ts",
  ];
  it("on every glob × path of the table", () => {
    const differences: string[] = [];
    for (const glob of globs) {
      const basename = !glob.includes("/");
      const ours = compileGlob(glob, { basename });
      const theirs = picomatch(glob, { dot: true, basename });
      for (const path of paths) {
        if (ours(path) !== theirs(path)) differences.push(`${glob} ${path}: picomatch ${theirs(path)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("a glob that needs a look-ahead matches nothing; a path with a . or .. segment matches no glob", () => {
    expect(compileGlob("!(x).md", { basename: true })("y.md")).toBe(false);
    expect(compileGlob("*/x.ts", { basename: false })("../x.ts")).toBe(false);
    expect(compileGlob("**", { basename: false })("a/./b")).toBe(false);
  });
});
