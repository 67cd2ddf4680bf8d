/**
 * What the host knows reaches core: the files `createSkills({ files })` (or `wrap({ files })`)
 * reports gate `paths` skills, and `wrap({ ids })` is stamped on every skill event.
 */

import { describeWithSharedData } from "@skillshelf/test-utils";
import { generateText } from "ai";
import { afterEach, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { type Fixture, hostTools, skillFixture } from "./test-utils/fixtures.js";
import { scriptedModel } from "./test-utils/mock-model.js";

const SQL_FIX = `---
name: sql-fix
description: Fix a broken SQL query.
triggers: [fix the query]
paths: ["**/*.sql"]
---
Fix the SQL.
`;

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

const offered = (model: ReturnType<typeof scriptedModel>) =>
  (model.calls[0]?.tools ?? []).map((t) => (t as { name: string }).name);

// skillFixture copies one skill from the shared corpus (see test-utils/fixtures.ts).
describeWithSharedData("the AI SDK adapter's host context", () => {
  it("offers a paths skill for a file the host reports, not for another", async () => {
    fixture = await skillFixture({ "sql-fix": SQL_FIX });
    const { shelf } = fixture;
    const seen: unknown[] = [];
    const skills = await createSkills({
      shelf,
      files: (messages) => {
        seen.push(messages);
        return ["db/report.sql"];
      },
    });
    const model = scriptedModel(() => ({ text: "ok" }));
    await generateText({ model, prompt: "fix the query", ...skills.wrap({ tools: hostTools() }) });
    expect(offered(model)).toContain("skill_sql-fix");
    expect(Array.isArray(seen[0])).toBe(true);

    const other = scriptedModel(() => ({ text: "ok" }));
    await generateText({
      model: other,
      prompt: "fix the query",
      ...skills.wrap({ tools: hostTools(), files: () => ["README.md"] }),
    });
    expect(offered(other)).not.toContain("skill_sql-fix");
  });

  it("stamps wrap({ ids }) on the events", async () => {
    fixture = await skillFixture({ "sql-fix": SQL_FIX });
    const skills = await createSkills({ shelf: fixture.shelf });
    await generateText({
      model: scriptedModel(() => ({ text: "ok" })),
      prompt: "fix the query in db/report.sql",
      ...skills.wrap({ tools: hostTools(), ids: { thread: "chat-3", run: "req-9" } }),
    });
    const candidates = fixture.events.find((e) => e.type === "candidates");
    expect(candidates).toMatchObject({ thread: "chat-3", run: "req-9" });
  });
});
