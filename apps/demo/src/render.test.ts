import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createJsonWriter, createRenderer } from "./render.js";

const ESC = "\u001b";
/** Anything but the renderer's own SGR colour codes. */
const FOREIGN_CONTROL =
  /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function sink() {
  let text = "";
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { out, text: () => text };
}

describe("the demo transcript escapes what users, skills and the model wrote", () => {
  it("in the coloured transcript", () => {
    const { out, text } = sink();
    const renderer = createRenderer({ out, color: true, spinner: false });
    renderer.handle({ type: "user", thread: "main", text: `hello${ESC}[2K${ESC}[1A\r\u202eevil` });
    expect(text()).not.toMatch(FOREIGN_CONTROL);
    expect(text()).toContain("hello\\u001b[2K\\u001b[1A\\r\\u202eevil");
    expect(text()).toContain(`${ESC}[32m`); // its own colours still work
  });

  it("in the JSON stream", () => {
    const { out, text } = sink();
    createJsonWriter(out)({ type: "user", thread: "main", text: "a\u009b31mb\u202ec" });
    expect(text()).not.toMatch(FOREIGN_CONTROL);
    expect(JSON.parse(text()).text).toBe("a\u009b31mb\u202ec");
  });
});
