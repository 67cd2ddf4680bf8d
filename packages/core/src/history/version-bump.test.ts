import { readFileSync } from "node:fs";
import { itWithSharedData, sharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { parseSkill } from "../parse/parse-skill.js";
import { bumpVersion, nextVersion, readVersion } from "./version-bump.js";

const data = sharedData();
const edgeCase = (name: string) => readFileSync(`${data}parser-edge-cases/${name}/SKILL.md`, "utf8");

const skill = (frontmatter: string, body = "# Steps\n\n1. Do it.\n") =>
  `---\nname: demo\ndescription: A demo skill.\n${frontmatter}---\n\n${body}`;

/** The lines that differ between two texts, as [before, after] pairs by line number. */
function changedLines(a: string, b: string): Array<[string | undefined, string | undefined]> {
  const x = a.split("\n");
  const y = b.split("\n");
  const out: Array<[string | undefined, string | undefined]> = [];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) out.push([x[i], y[i]]);
  return out;
}

describe("nextVersion", () => {
  it("bumps the patch of the current version", () => {
    expect(nextVersion("1.2.3", "1.2.3")).toBe("1.2.4");
    expect(nextVersion("1.2.3", undefined)).toBe("1.2.4");
  });
  it("keeps a higher version the new content declares on purpose", () => {
    expect(nextVersion("1.2.3", "2.0.0")).toBe("keep");
    expect(nextVersion(undefined, "1.0.0")).toBe("keep");
  });
  it("never goes down: an older declared version (a rollback) bumps from the current one", () => {
    expect(nextVersion("1.0.5", "1.0.2")).toBe("1.0.6");
  });
  it("treats an unversioned skill as 0.0.0", () => {
    expect(nextVersion(undefined, undefined)).toBe("0.0.1");
  });
  it("reads short forms and a v prefix, and keeps the prefix", () => {
    expect(nextVersion("2", undefined)).toBe("2.0.1");
    expect(nextVersion("1.0", "1.0")).toBe("1.0.1");
    expect(nextVersion("v1.2.3", "v1.2.3")).toBe("v1.2.4");
  });
  it("finishes a prerelease (semver's patch rule)", () => {
    expect(nextVersion("1.2.3-beta.1", undefined)).toBe("1.2.3");
  });
  it("gives up on versions that are not semver-like", () => {
    expect(nextVersion("draft", "draft")).toBeUndefined();
    expect(nextVersion(undefined, "2024-06-01")).toBeUndefined();
  });
});

describe("bumpVersion", () => {
  it("changes only the version value, keeping quotes and comments", () => {
    const before = skill('version: "1.4.0" # bumped by skillshelf\nlicense: MIT\n');
    const { text, version } = bumpVersion(before, "1.4.0");
    expect(version).toBe("1.4.1");
    expect(changedLines(before, text)).toEqual([
      ['version: "1.4.0" # bumped by skillshelf', 'version: "1.4.1" # bumped by skillshelf'],
    ]);
  });

  it("keeps single quotes", () => {
    expect(bumpVersion(skill("version: '0.3.9'\n"), "0.3.9").text).toContain("version: '0.3.10'\n");
  });

  it("adds version: 0.0.1 as the last frontmatter line when there is none", () => {
    const before = skill("license: MIT\n");
    const { text, version } = bumpVersion(before, undefined);
    expect(version).toBe("0.0.1");
    expect(text).toBe(skill("license: MIT\nversion: 0.0.1\n"));
  });

  it("bumps metadata.version when that is where the file keeps it", () => {
    const before = skill('metadata:\n  author: me\n  version: "1.0"\n');
    const { text } = bumpVersion(before, "1.0");
    expect(changedLines(before, text)).toEqual([['  version: "1.0"', '  version: "1.0.1"']]);
  });

  itWithSharedData("keeps CRLF line endings and the BOM (real CRLF file)", () => {
    const before = `\uFEFF${edgeCase("crlf-line-endings")}`;
    const { text, version } = bumpVersion(before, undefined);
    expect(version).toBe("0.0.1");
    expect(text.startsWith("\uFEFF---\r\n")).toBe(true);
    expect(text).toContain("\r\nversion: 0.0.1\r\n---\r\n");
    expect(text.replace("version: 0.0.1\r\n", "")).toBe(before);
    expect(parseSkill(text).skill?.version).toBe("0.0.1");
  });

  itWithSharedData("bumps a YAML float version as text (real file: version: 2.0)", () => {
    const before = edgeCase("numeric-version");
    const { text } = bumpVersion(before, readVersion(before));
    expect(changedLines(before, text)).toEqual([["version: 2.0", "version: 2.0.1"]]);
  });

  itWithSharedData("bumps `Version:` instead of adding a second key differing in case (real file)", () => {
    const before = edgeCase("case-variant-duplicate-keys");
    expect(readVersion(before)).toBe("2.1.2");
    expect(changedLines(before, bumpVersion(before, "2.1.2").text)).toEqual([
      ["Version: 2.1.2", "Version: 2.1.3"],
    ]);
  });

  it("re-emits a one-line flow-map frontmatter to add the field", () => {
    const { text, version } = bumpVersion("---\n{name: demo, description: A demo.}\n---\nBody\n", undefined);
    expect(version).toBe("0.0.1");
    expect(parseSkill(text).skill).toMatchObject({ name: "demo", description: "A demo.", version: "0.0.1" });
  });

  it("leaves a version that is not a plain value, and says so", () => {
    const before = skill("version: [Optional: e.g., 1.0, Date]\n");
    const result = bumpVersion(before, undefined);
    expect(result.text).toBe(before);
    expect(result.note).toMatch(/not a plain value/);
  });

  it("leaves a non-semver version, and says so", () => {
    const before = skill("version: draft\n");
    const result = bumpVersion(before, "draft");
    expect(result.text).toBe(before);
    expect(result.note).toMatch(/not semver/);
  });

  it("does not add a second key next to an empty `version:`", () => {
    const before = skill("version:\n");
    expect(bumpVersion(before, undefined).text).toBe(before);
  });

  itWithSharedData("over the whole corpus: touches exactly one line, and only the version changes", () => {
    const manifest = readFileSync(`${data}skills-corpus/MANIFEST.tsv`, "utf8").trim().split("\n").slice(1);
    let bumped = 0;
    let inserted = 0;
    let left = 0;
    for (const row of manifest) {
      const path = `${data}skills-corpus/${row.split("\t")[0]}`;
      const before = readFileSync(path, "utf8");
      const parsed = parseSkill(before, { path });
      if (!parsed.skill) continue;
      const { text, version, note } = bumpVersion(before, readVersion(before));
      if (note) {
        left++;
        expect(text, path).toBe(before);
        continue;
      }
      const after = parseSkill(text, { path }).skill;
      expect(after, path).toBeDefined();
      const changes = changedLines(before, text);
      if (changes.length === 1) bumped++;
      else inserted++;
      // One replaced line, or one inserted line (everything after it shifted by one).
      const eol = before.includes("\r\n") ? "\r\n" : "\n";
      expect(changes.length === 1 || text.replace(`version: ${version}${eol}`, "") === before, path).toBe(
        true,
      );
      // Everything but the version (top-level, or metadata.version) reads back the same.
      const withoutVersion = (s: NonNullable<typeof after>) => {
        const { version: _, metadata, hash: _h, bodyLine: _b, ...rest } = s;
        const { version: _m, ...otherMetadata } = metadata ?? {};
        return { ...rest, metadata: otherMetadata };
      };
      expect(withoutVersion(after!), path).toEqual(withoutVersion(parsed.skill));
      expect(readVersion(text), path).toBe(version);
      expect(version, path).not.toBe(readVersion(before));
    }
    // The corpus (939 files): 46 declare a version (top-level or metadata.version), the
    // rest get `version: 0.0.1` added; none is left as is.
    expect({ bumped, inserted, left }).toEqual({ bumped: 46, inserted: 893, left: 0 });
  });
});
