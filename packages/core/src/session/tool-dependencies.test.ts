/**
 * A skill whose whitelist names only tools the host lacks is loaded but not offered; one
 * that lacks some of them is offered; the plan's diagnostic names what is missing.
 */
import { describe, expect, it } from "vitest";
import { createMatcher } from "../match/matcher.js";
import { createSession } from "./session.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

const matcher = createMatcher();
const skills = fixedSource([
  makeSkill("pdf-fill", {
    description: "Fill PDF forms.",
    triggers: ["pdf"],
    allowedTools: ["pdf_fill", "pdf_read"],
  }),
  makeSkill("pdf-read", {
    description: "Read PDF files.",
    triggers: ["pdf"],
    allowedTools: ["Read", "pdf_ocr"],
  }),
  makeSkill("pdf-notes", { description: "Notes about PDFs.", triggers: ["pdf"] }),
]);

function plan(tools: string[], extra: { offerWithoutTools?: boolean } = {}) {
  return createSession({
    skills,
    tools,
    message: "help with this pdf",
    match: (list, message) => matcher.match(list, message),
    ...extra,
  }).plan();
}

const offered = (p: ReturnType<typeof plan>) => JSON.stringify(p.tools);

describe("tools as a skill's dependencies", () => {
  it("does not offer a skill none of whose tools the host has, and says which are missing", () => {
    const p = plan(["read_file", "web_search"]);
    expect(offered(p)).not.toContain("pdf-fill");
    expect(p.candidates.map((c) => c.name)).not.toContain("pdf-fill");
    expect(offered(p)).toContain("pdf-read"); // Read → read_file exists: offered, with a note
    const fill = p.diagnostics.find((d) => d.code === "missing-tools" && d.message.includes('"pdf-fill"'));
    expect(fill?.message).toContain('needs "pdf_fill", "pdf_read"');
    expect(fill?.message).toContain("not offered");
    const read = p.diagnostics.find((d) => d.code === "missing-tools" && d.message.includes('"pdf-read"'));
    expect(read).toMatchObject({ severity: "info" });
    expect(read?.message).toContain('"pdf_ocr"');
  });

  it("offers it once the host has one of them, or when the gate is off", () => {
    expect(offered(plan(["read_file", "pdf_read"]))).toContain("pdf-fill");
    expect(offered(plan(["read_file"], { offerWithoutTools: true }))).toContain("pdf-fill");
  });

  it("judges skills that share a whitelist each by their own lists, and names each one", () => {
    const shared = fixedSource([
      makeSkill("fill-a", {
        description: "Fill PDF forms.",
        triggers: ["pdf"],
        allowedTools: ["pdf_fill", "Read"],
      }),
      makeSkill("fill-b", {
        description: "Fill PDF forms.",
        triggers: ["pdf"],
        allowedTools: ["pdf_fill", "Read"],
      }),
      // The same whitelist, but the one tool the host has is disallowed: nothing is left.
      makeSkill("fill-c", {
        description: "Fill PDF forms.",
        triggers: ["pdf"],
        allowedTools: ["pdf_fill", "Read"],
        disallowedTools: ["Read"],
      }),
    ]);
    const p = createSession({
      skills: shared,
      tools: ["read_file"],
      message: "help with this pdf",
      match: (list, message) => matcher.match(list, message),
    }).plan();
    const missing = p.diagnostics.filter((d) => d.code === "missing-tools");
    expect(missing.map((d) => [d.message.match(/"(fill-.)"/u)?.[1], d.severity])).toEqual([
      ["fill-a", "info"],
      ["fill-b", "info"],
      ["fill-c", "warning"],
    ]);
    expect(offered(p)).not.toContain("fill-c");
  });

  it("judges nothing when the host names no tools", () => {
    expect(offered(plan([]))).toContain("pdf-fill");
  });

  it("still lets the user run it by /name", () => {
    const session = createSession({ skills, tools: ["read_file"], message: "/pdf-fill form.pdf" });
    expect(session.plan().explicit?.status).toBe("success");
  });
});
