import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createShelf } from "@skillshelf/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";

let base: string;
let repo: string;
let home: string;

async function write(file: string, text: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

const DEPLOY = `---\nname: deploy\ndescription: Deploy the app.\ntriggers: [deploy]\nallowed-tools: bash\n---\nDeploy.\n`;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-trust-")));
  repo = path.join(base, "repo");
  home = path.join(base, "home");
  await write(path.join(repo, ".agents/skills/deploy/SKILL.md"), DEPLOY);
  await write(path.join(repo, ".agents/skills/deploy/scripts/ship.sh"), "echo ship\n");
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("skillshelf trust", () => {
  it("trusts the project's skill folders in the user's trust file, and a gated shelf then offers them", async () => {
    const shelf = await createShelf({ root: repo, userDirs: [], events: false, trust: { home } });
    const offered = () =>
      shelf
        .session({ message: "deploy it", tools: ["bash"] })
        .plan()
        .tools.some((t) => t.name === "skill_deploy");
    expect(offered()).toBe(false);

    const cap = capture(repo, { home });
    expect(await main(["trust"], cap.ctx)).toBe(0);
    expect(cap.out()).toContain("✔ deploy");
    expect(cap.out()).toContain("allowed-tools: bash");
    expect(cap.out()).toContain("scripts: scripts/ship.sh");
    await expect(fs.access(path.join(home, ".skillshelf", "trust.json"))).resolves.toBeUndefined();
    await expect(fs.access(path.join(repo, ".skillshelf", "trust.json"))).rejects.toThrow();

    await shelf.refresh();
    expect(offered()).toBe(true);
    await shelf.close();
  });

  it("--list, list and validate show the trust state; an edit that widens shows 'needs re-trust'", async () => {
    const listing = async () => {
      const cap = capture(repo, { home });
      await main(["list", "--no-builtins", "--trust"], cap.ctx);
      return cap.out();
    };
    expect(await listing()).toMatch(/deploy\s+project\s+\S+SKILL\.md\s+untrusted/);

    await main(["trust", ".agents/skills/deploy"], capture(repo, { home }).ctx);
    expect(await listing()).toMatch(/SKILL\.md\s+trusted/);

    await write(path.join(repo, ".agents/skills/deploy/SKILL.md"), DEPLOY.replace("bash", "bash send_email"));
    expect(await listing()).toContain("needs re-trust");
    const cap = capture(repo, { home });
    await main(["trust", "--list"], cap.ctx);
    expect(cap.out()).toContain("allowed-tools adds send_email");

    const json = capture(repo, { home });
    await main(["validate", ".agents/skills", "--json"], json.ctx);
    const report = JSON.parse(json.out()) as { files: Array<{ name?: string; trust?: string }> };
    expect(report.files.find((f) => f.name === "deploy")?.trust).toBe("needs-retrust");
    const human = capture(repo, { home });
    await main(["validate", ".agents/skills"], human.ctx);
    expect(human.out()).toContain("1 skill folder not trusted");

    await main(["trust", "--revoke", ".agents/skills"], capture(repo, { home }).ctx);
    expect(await listing()).toMatch(/SKILL\.md\s+untrusted/);
  });

  it("fails on a path without skills and refuses a trust file it cannot read", async () => {
    const empty = capture(repo, { home });
    expect(await main(["trust", "src"], empty.ctx)).toBe(1);
    await write(path.join(home, ".skillshelf", "trust.json"), "not json");
    const broken = capture(repo, { home });
    expect(await main(["trust"], broken.ctx)).toBe(1);
    expect(broken.err()).toContain("not valid JSON");
    expect(await fs.readFile(path.join(home, ".skillshelf", "trust.json"), "utf8")).toBe("not json");
  });
});
