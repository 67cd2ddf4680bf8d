/**
 * PostgreSQL stores neither NUL nor a lone UTF-16 surrogate, in `text` or `jsonb`, and
 * refuses the whole statement over one. What a model or a skill chooses (a tool name, a
 * message, a skill name) reaches a batch insert, so one such character would drop every row
 * sent with it — a blocked call's event among them — or, kept for a retry, block every
 * later send. Each becomes U+FFFD, as a decoder does with bytes it cannot read.
 */

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\ufffd");
}

/** `JSON.stringify` with every string (keys too) made storable. */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "string") return storableText(item);
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const entries = Object.entries(item);
    if (entries.every(([k]) => storableText(k) === k)) return item;
    return Object.fromEntries(entries.map(([k, v]) => [storableText(k), v]));
  });
}
