import { describe, expect, it } from "vitest";
import { escapeTerminal, hasTerminalControls } from "./escape-terminal.js";
import { terminalStyles } from "./terminal-styles.js";

const ESC = "\u001b";
/** A line a hostile proposal could hide: erase the line and move up over it. */
const HIDDEN = `allowed-tools: Bash${ESC}[2K${ESC}[1A\r`;

describe("escapeTerminal", () => {
  it("leaves ordinary text, line breaks and tabs alone", () => {
    const text = "- Step 1:\tread the file\n- Étape 2 : 日本語, emoji 👩‍💻";
    expect(escapeTerminal(text)).toBe(text);
    expect(hasTerminalControls(text)).toBe(false);
  });

  it("makes escape sequences, CR and other C0/C1 controls visible", () => {
    expect(escapeTerminal(HIDDEN)).toBe("allowed-tools: Bash\\u001b[2K\\u001b[1A\\r");
    expect(escapeTerminal(`${ESC}]52;c;Y3VybA==\u0007`)).toBe("\\u001b]52;c;Y3VybA==\\u0007");
    expect(escapeTerminal("a\u009b31mb\u0085c\u007f")).toBe("a\\u009b31mb\\u0085c\\u007f");
    expect(escapeTerminal("\u0000\u0008")).toBe("\\u0000\\u0008");
    expect(hasTerminalControls(HIDDEN)).toBe(true);
  });

  it("makes bidi controls and invisible characters visible", () => {
    expect(escapeTerminal("abc\u202edcba\u202c")).toBe("abc\\u202edcba\\u202c");
    for (const c of ["\u202a", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"]) {
      expect(escapeTerminal(c)).toMatch(/^\\u[0-9a-f]{4}$/);
    }
    expect(escapeTerminal("zero\u200bwidth\ufeff\u2060\u00ad")).toBe("zero\\u200bwidth\\ufeff\\u2060\\u00ad");
    expect(escapeTerminal("line\u2028sep")).toBe("line\\u2028sep");
    // Tag characters render as nothing: "hi" followed by hidden "ab".
    expect(escapeTerminal("hi\u{e0061}\u{e0062}")).toBe("hi\\udb40\\udc61\\udb40\\udc62");
  });

  it("escapes line breaks and tabs too for one-line fields", () => {
    expect(escapeTerminal("a\nb\tc", { newlines: false })).toBe("a\\nb\tc");
    expect(escapeTerminal("a\nb\tc", { newlines: false, tabs: false })).toBe("a\\nb\\tc");
    expect(escapeTerminal("a\nb\tc", { tabs: false })).toBe("a\nb\\tc");
  });

  it("is idempotent, and its output is valid inside a JSON string", () => {
    const once = escapeTerminal(`x${ESC}[31m\u202e\u{e0041}\u0085`);
    expect(escapeTerminal(once)).toBe(once);
    expect(JSON.parse(`"${once}"`)).toBe(`x${ESC}[31m\u202e\u{e0041}\u0085`);
  });
});

describe("terminalStyles", () => {
  const fake = {
    red: (s: string) => `${ESC}[31m${s}${ESC}[39m`,
    bold: (s: string) => `${ESC}[1m${s}${ESC}[22m`,
    isColorSupported: true,
  };

  it("keeps the program's own colours and escapes the data, inside a style or not", () => {
    const { colors, render } = terminalStyles(fake);
    const line = render(`${colors.bold(colors.red(HIDDEN))} and ${HIDDEN}`);
    expect(line).toBe(
      `${ESC}[1m${ESC}[31mallowed-tools: Bash\\u001b[2K\\u001b[1A\\r${ESC}[39m${ESC}[22m and allowed-tools: Bash\\u001b[2K\\u001b[1A\\r`,
    );
    expect(colors.isColorSupported).toBe(true);
  });

  it("cannot be forged by data that imitates a style marker", () => {
    const { render } = terminalStyles(fake);
    const forged = "\ue000deadbeefdeadbeef8\ue001secret";
    expect(render(forged)).not.toContain(ESC);
  });
});
