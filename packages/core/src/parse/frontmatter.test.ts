import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "./frontmatter.js";

describe("splitFrontmatter", () => {
  it("splits at whole-line fences and numbers the body's first line", () => {
    expect(splitFrontmatter("---\nname: a\n---\n\n\n# Body\n---\nmore\n\n")).toEqual({
      kind: "ok",
      yaml: "name: a\n",
      yamlLine: 2,
      body: "# Body\n---\nmore",
      bodyLine: 6,
    });
  });

  it("tolerates trailing spaces on fences and a file that ends at the closing fence", () => {
    expect(splitFrontmatter("---  \nname: a\n--- \t")).toMatchObject({
      kind: "ok",
      yaml: "name: a\n",
      body: "",
    });
  });

  it("does not take `----`, `--- x` or a `---` inside a value for a fence", () => {
    expect(splitFrontmatter("----\nname: a\n---\n").kind).toBe("none");
    expect(splitFrontmatter("--- title\n").kind).toBe("none");
    expect(splitFrontmatter("---\ndescription: a --- b\nx: ---y\n---\nbody")).toMatchObject({
      yaml: "description: a --- b\nx: ---y\n",
      body: "body",
    });
  });

  it("recognises an empty frontmatter, a missing one and an unclosed one", () => {
    expect(splitFrontmatter("---\n---\nbody")).toMatchObject({
      kind: "ok",
      yaml: "",
      body: "body",
      bodyLine: 3,
    });
    expect(splitFrontmatter("# Title\n---\n").kind).toBe("none");
    expect(splitFrontmatter("---\nname: a\n").kind).toBe("unclosed");
    expect(splitFrontmatter("---").kind).toBe("unclosed");
  });
});
