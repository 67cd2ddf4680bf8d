import { describe, expect, it } from "vitest";
import { colorEnabled } from "./color.js";
import { createContext } from "./context.js";

describe("colour", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true], // empty means unset (no-color.org)
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "true" }, false, true],
    [{ FORCE_COLOR: "3" }, false, true],
    [{ FORCE_COLOR: "" }, false, true], // set, even empty: forced (as Node reads it)
    [{ FORCE_COLOR: "0" }, true, false],
    [{ FORCE_COLOR: "false" }, true, false],
    [{ FORCE_COLOR: "1", NO_COLOR: "1" }, false, true], // FORCE_COLOR wins, as in Node
  ])("env %j on a %s TTY: colour %s", (env, tty, expected) => {
    expect(colorEnabled(env, tty)).toBe(expected);
  });

  it("a context built with FORCE_COLOR prints styles even when stdout is not a terminal", () => {
    let out = "";
    const ctx = createContext({ env: { FORCE_COLOR: "1" }, out: (t) => (out += t) });
    ctx.out(ctx.color.bold("x"));
    expect(out).toContain("\u001b[1m");
  });

  it("a context built with NO_COLOR prints none", () => {
    let out = "";
    const ctx = createContext({ env: { NO_COLOR: "1" }, out: (t) => (out += t) });
    ctx.out(ctx.color.bold("x"));
    expect(out).toBe("x");
  });
});
