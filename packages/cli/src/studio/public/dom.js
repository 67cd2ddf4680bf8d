// Building the page from data without ever parsing data as HTML: every string child
// becomes a text node, and properties are set as properties (never innerHTML).

/**
 * el("p", { className: "x", dataset: { test: "y" }, onclick }, "text", childNode, [more])
 * Strings and numbers become text nodes; arrays are flattened; null/false are skipped.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node[key] = value;
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces everything in `node` with `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** `2026-11-30 04:07:15` (UTC), as the CLI prints times. */
export function time(iso) {
  return iso ? String(iso).replace("T", " ").slice(0, 19) : "";
}

/** A short error line for a failed call. */
export function errorLine(error) {
  return el("p", { className: "error", dataset: { test: "error" } }, String(error?.message ?? error));
}

/**
 * `text` with each of `quotes` that occurs in it wrapped in <mark>: the evidence highlighted
 * where it was said. Quotes that do not occur are returned in `missing`.
 */
export function highlight(text, quotes) {
  const spans = [];
  for (const quote of quotes) {
    if (!quote) continue;
    let from = 0;
    for (;;) {
      const at = text.indexOf(quote, from);
      if (at < 0) break;
      spans.push([at, at + quote.length]);
      from = at + quote.length;
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const parts = [];
  let cursor = 0;
  for (const [start, end] of spans) {
    if (start < cursor) continue;
    if (start > cursor) parts.push(text.slice(cursor, start));
    parts.push(el("mark", {}, text.slice(start, end)));
    cursor = end;
  }
  if (cursor < text.length) parts.push(text.slice(cursor));
  return { parts, missing: quotes.filter((q) => q && !text.includes(q)) };
}
