// A unified diff (as core's diff() and preview() return it) shown side by side: the old
// text on the left, the new on the right, changed lines paired up, hunks separated.
import { el } from "./dom.js";

/** Rows of [left, right] cells: { kind: "same" | "removed" | "added" | "empty" | "hunk", text, line }. */
export function sideBySideRows(patch) {
  const rows = [];
  let oldLine = 0;
  let newLine = 0;
  let removed = [];
  let added = [];
  const flush = () => {
    const n = Math.max(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      rows.push([removed[i] ?? { kind: "empty", text: "" }, added[i] ?? { kind: "empty", text: "" }]);
    }
    removed = [];
    added = [];
  };
  let inHunk = false;
  for (const line of String(patch).split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      flush();
      inHunk = true;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push([
        { kind: "hunk", text: line },
        { kind: "hunk", text: "" },
      ]);
      continue;
    }
    if (!inHunk || line.startsWith("\\")) continue;
    if (line.startsWith("-")) removed.push({ kind: "removed", text: line.slice(1), line: oldLine++ });
    else if (line.startsWith("+")) added.push({ kind: "added", text: line.slice(1), line: newLine++ });
    else if (line.startsWith(" ")) {
      flush();
      rows.push([
        { kind: "same", text: line.slice(1), line: oldLine++ },
        { kind: "same", text: line.slice(1), line: newLine++ },
      ]);
    }
  }
  flush();
  return rows;
}

export function diffView(patch, labels = ["before", "after"]) {
  const rows = sideBySideRows(patch);
  if (rows.length === 0) return el("p", { className: "muted" }, "No differences.");
  const cell = (c) => [
    el("td", { className: `num ${c.kind}` }, c.line ?? ""),
    el("td", { className: `code ${c.kind}` }, c.text),
  ];
  return el(
    "table",
    { className: "diff", dataset: { test: "diff" } },
    el(
      "colgroup",
      {},
      ["num", "code", "num", "code"].map((kind) => el("col", { className: kind })),
    ),
    el("thead", {}, el("tr", {}, el("th", { colSpan: 2 }, labels[0]), el("th", { colSpan: 2 }, labels[1]))),
    el(
      "tbody",
      {},
      rows.map(([left, right]) => el("tr", {}, cell(left), cell(right))),
    ),
  );
}
