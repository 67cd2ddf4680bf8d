/**
 * The part of a run a proposal keeps beside its evidence: each message that holds a quote,
 * with the message before it (what led there), so a reviewer sees the quote where it was
 * said. Only those messages — not the whole run: the rest of a conversation is none of the
 * proposal's business, and a store of proposals must not grow with every transcript.
 */
import type { Transcript } from "./prompts.js";

export interface ExcerptMessage {
  role: string;
  content: string;
}

/** Characters kept of one message; a longer one is cut around its first quote. */
export const MAX_EXCERPT_MESSAGE_CHARS = 4000;
/** Messages kept per proposal. */
export const MAX_EXCERPT_MESSAGES = 8;

/** Matching as the evidence check matches: across whitespace, case and typographic quotes. */
function fold(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, " ")
    .toLowerCase();
}

function messagesOf(transcript: Transcript): ExcerptMessage[] {
  if (typeof transcript !== "string") return transcript.map((m) => ({ role: m.role, content: m.content }));
  // A plain-text run: its paragraphs stand in for messages.
  return transcript
    .split(/\n\s*\n/)
    .filter((part) => part.trim())
    .map((content) => ({ role: "run", content }));
}

function clip(content: string, quotes: readonly string[]): string {
  if (content.length <= MAX_EXCERPT_MESSAGE_CHARS) return content;
  const folded = fold(content);
  const hits = quotes.map((q) => folded.indexOf(fold(q).trim())).filter((at) => at >= 0);
  // Folding can shift offsets a little (NFKC, collapsed spaces): the window is generous.
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(
    0,
    Math.min(at - MAX_EXCERPT_MESSAGE_CHARS / 4, content.length - MAX_EXCERPT_MESSAGE_CHARS),
  );
  const end = start + MAX_EXCERPT_MESSAGE_CHARS;
  return `${start > 0 ? "… " : ""}${content.slice(start, end)}${end < content.length ? " …" : ""}`;
}

/**
 * The messages of `transcript` that contain one of `evidence` (each with the one before
 * it), in order, at most MAX_EXCERPT_MESSAGES, each at most MAX_EXCERPT_MESSAGE_CHARS.
 */
export function evidenceExcerpt(transcript: Transcript, evidence: readonly string[]): ExcerptMessage[] {
  const messages = messagesOf(transcript);
  const quotes = evidence.map((q) => fold(q).trim()).filter(Boolean);
  const keep = new Set<number>();
  messages.forEach((message, index) => {
    const text = fold(message.content);
    if (!quotes.some((q) => text.includes(q))) return;
    if (index > 0) keep.add(index - 1);
    keep.add(index);
  });
  return [...keep]
    .sort((a, b) => a - b)
    .slice(0, MAX_EXCERPT_MESSAGES)
    .map((index) => {
      const message = messages[index]!;
      return { role: message.role, content: clip(message.content, evidence) };
    });
}
