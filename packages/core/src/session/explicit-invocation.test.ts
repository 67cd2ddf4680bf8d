import { describe, expect, it } from "vitest";
import { parseExplicitInvocation, resolveInvokedSkill } from "./explicit-invocation.js";
import { fixedSource, makeSkill } from "./test-utils/skills.js";

describe("parseExplicitInvocation", () => {
  it("reads /name and its arguments", () => {
    expect(parseExplicitInvocation("/deploy")).toEqual({ name: "deploy", args: "" });
    expect(parseExplicitInvocation("  /deploy   prod --fast  ")).toEqual({
      name: "deploy",
      args: "prod --fast",
    });
    expect(parseExplicitInvocation("/review\nline two")).toEqual({ name: "review", args: "line two" });
    expect(parseExplicitInvocation("/写作 一篇文章")).toEqual({ name: "写作", args: "一篇文章" });
  });

  it("is not a command unless the message starts with a single slash and a word", () => {
    expect(parseExplicitInvocation("please /deploy")).toBeUndefined();
    expect(parseExplicitInvocation("/usr/bin is full")).toBeUndefined();
    expect(parseExplicitInvocation("/")).toBeUndefined();
    expect(parseExplicitInvocation("/ deploy")).toBeUndefined();
    expect(parseExplicitInvocation("//comment")).toBeUndefined();
  });
});

describe("resolveInvokedSkill", () => {
  const source = fixedSource([makeSkill("pdf"), makeSkill("ｗｉｄｅ"), makeSkill("写作")]);
  it("finds exact, case-insensitive and width-insensitive names", () => {
    expect(resolveInvokedSkill(source, "pdf")?.name).toBe("pdf");
    expect(resolveInvokedSkill(source, "PDF")?.name).toBe("pdf");
    expect(resolveInvokedSkill(source, "ｐｄｆ")?.name).toBe("pdf");
    expect(resolveInvokedSkill(source, "wide")?.name).toBe("ｗｉｄｅ");
    expect(resolveInvokedSkill(source, "写作")?.name).toBe("写作");
    expect(resolveInvokedSkill(source, "docx")).toBeUndefined();
  });
});
