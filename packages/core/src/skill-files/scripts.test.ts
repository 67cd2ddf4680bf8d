/**
 * Skill scripts on real processes: approved runs and refused ones, the timeout, the output
 * cap, the scrubbed environment, and the sandbox copy that leaves the skill folder as it was.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptRunResult } from "../types.js";
import { runSkillScript, type ScriptOptions, type ScriptRequest } from "./scripts.js";

let base: string;
let dir: string;

async function write(rel: string, data: string) {
  const file = path.join(dir, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
  return file;
}

const ok = (r: ScriptRunResult) => {
  if (r.status !== "success") throw new Error(`expected success, got ${r.error_type}: ${r.message}`);
  return r.data;
};

const yes: ScriptOptions = { run: true, approve: () => true };

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-scripts-")));
  dir = path.join(base, "report");
  await write("SKILL.md", "---\nname: report\ndescription: Reports.\n---\nRun scripts/count.js.\n");
  await write("scripts/count.js", "console.log('args:' + process.argv.slice(2).join(','));\n");
  await write("references/data.txt", "a\nb\n");
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("runSkillScript", () => {
  it("runs an approved script with its arguments, no shell, and shows the request first", async () => {
    const requests: ScriptRequest[] = [];
    const result = await runSkillScript("report", dir, "scripts/count.js", ["a b", "$(id)", ";rm -rf /"], {
      run: true,
      approve: async (request) => {
        requests.push(request);
        return true;
      },
    });
    const data = ok(result);
    expect(data).toMatchObject({ exitCode: 0, timedOut: false, signal: null, script: "scripts/count.js" });
    expect(data.stdout).toBe("args:a b,$(id),;rm -rf /\n");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      skill: "report",
      script: "scripts/count.js",
      command: process.execPath,
      cwd: "sandbox",
      folder: dir,
    });
  });

  it("does not run a refused script, nor one whose approval throws or is not exactly true", async () => {
    await write("scripts/touch.js", "require('fs').writeFileSync(process.argv[2], 'ran');\n");
    const marker = path.join(base, "ran.txt");
    for (const approve of [
      () => false,
      () => {
        throw new Error("boom");
      },
      () => "yes" as unknown as boolean,
    ]) {
      const result = await runSkillScript("report", dir, "scripts/touch.js", [marker], {
        run: true,
        approve,
      });
      expect(result).toMatchObject({ status: "error", error_type: "NOT_APPROVED" });
    }
    await expect(fs.access(marker)).rejects.toThrow();
    ok(await runSkillScript("report", dir, "scripts/touch.js", [marker], yes));
    expect(await fs.readFile(marker, "utf8")).toBe("ran");
  });

  it("stops a script that runs past its timeout (its whole process group)", async () => {
    await write(
      "scripts/hang.js",
      "const { spawn } = require('child_process');\n" +
        "spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });\n" +
        "console.log('started'); setInterval(() => {}, 1000);\n",
    );
    const data = ok(await runSkillScript("report", dir, "scripts/hang.js", [], { ...yes, timeoutMs: 300 }));
    expect(data.timedOut).toBe(true);
    expect(data.exitCode).toBeNull();
    expect(data.signal).toBe("SIGKILL");
  });

  it("keeps only the tail of a long output", async () => {
    await write("scripts/loud.js", "process.stdout.write('x'.repeat(100000) + 'END');\n");
    const data = ok(await runSkillScript("report", dir, "scripts/loud.js", [], { ...yes, maxOutput: 1000 }));
    expect(data.stdout).toHaveLength(1000);
    expect(data.stdout.endsWith("END")).toBe(true);
    expect(data.stdoutDropped).toBe(100003 - 1000);
  });

  it("passes only the allowlisted environment", async () => {
    await write("scripts/env.js", "console.log(JSON.stringify(Object.keys(process.env).sort()));\n");
    process.env.SKILLSHELF_TEST_SECRET = "hunter2";
    try {
      const data = ok(await runSkillScript("report", dir, "scripts/env.js", [], yes));
      const keys = JSON.parse(data.stdout) as string[];
      expect(keys).not.toContain("SKILLSHELF_TEST_SECRET");
      expect(keys.every((k) => ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"].includes(k))).toBe(true);
      const widened = ok(
        await runSkillScript("report", dir, "scripts/env.js", [], {
          ...yes,
          env: ["SKILLSHELF_TEST_SECRET"],
        }),
      );
      expect(JSON.parse(widened.stdout)).toEqual(["SKILLSHELF_TEST_SECRET"]);
    } finally {
      delete process.env.SKILLSHELF_TEST_SECRET;
    }
  });

  it("runs in a throwaway copy by default, in the folder itself with cwd: 'skill'", async () => {
    await write("scripts/write.js", "require('fs').writeFileSync('out.txt', process.cwd());\n");
    ok(await runSkillScript("report", dir, "scripts/write.js", [], yes));
    await expect(fs.access(path.join(dir, "out.txt"))).rejects.toThrow();
    ok(await runSkillScript("report", dir, "scripts/write.js", [], { ...yes, cwd: "skill" }));
    expect(await fs.readFile(path.join(dir, "out.txt"), "utf8")).toBe(dir);
  });

  it("runs only files under scripts/, inside the folder", async () => {
    await fs.writeFile(path.join(base, "evil.js"), "console.log('evil')");
    await fs.symlink(path.join(base, "evil.js"), path.join(dir, "scripts", "link.js"));
    const cases: Array<[unknown, string]> = [
      ["references/data.txt", "INVALID_PATH"],
      ["../evil.js", "INVALID_PATH"],
      [path.join(base, "evil.js"), "INVALID_PATH"],
      ["scripts/link.js", "INVALID_PATH"],
      ["scripts/none.js", "NOT_FOUND"],
    ];
    for (const [script, error] of cases) {
      const result = await runSkillScript("report", dir, script, [], yes);
      expect(result, String(script)).toMatchObject({ status: "error", error_type: error });
    }
    expect(await runSkillScript("report", dir, "scripts/count.js", "a b", yes)).toMatchObject({
      error_type: "INVALID_ARGUMENTS",
    });
  });

  it("runs a script reached through a link inside scripts/ in the sandbox too (by its real path)", async () => {
    await fs.symlink(path.join(dir, "scripts", "count.js"), path.join(dir, "scripts", "alias.js"));
    expect(ok(await runSkillScript("report", dir, "scripts/alias.js", ["x"], yes)).stdout).toBe("args:x\n");
  });

  it("refuses a file it has no interpreter for and that is not executable", async () => {
    await write("scripts/notes.txt", "not a program");
    expect(await runSkillScript("report", dir, "scripts/notes.txt", [], yes)).toMatchObject({
      error_type: "NO_INTERPRETER",
    });
  });
});
