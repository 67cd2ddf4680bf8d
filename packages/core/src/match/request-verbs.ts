/**
 * The verbs a request is framed with, not what it is about: "help me …", "make a …",
 * "write a …", "帮我…", "写一个…". Every shelf shares them with its users whatever its skills
 * do, so they never make a skill a candidate on their own, and they count for little in how
 * much of a request a skill explains (coverage.ts).
 *
 * The shelf learns most generic words itself (a word many of its skills use, coverage.ts), but
 * a verb only two or three of twenty skills happen to use looks distinctive there ("help" in
 * "Git help: …" offered git-helper for "help me write a better intro for my blog post"), and
 * everyday frequency cannot tell these from the topic words that are as common in English
 * ("time", "call", "list": measured in bench/RESULTS.md). Kept to the verbs that frame a
 * request in general; a skill can still be about them: its other words, a trigger, its name or
 * an example carry it.
 *
 * Held as index terms (Porter2 stems for English, Chinese words as Intl.Segmenter splits them),
 * so "writing" and "writes" are "write" as the index knows them; a test checks the stems.
 */
export const REQUEST_VERB_TERMS: ReadonlySet<string> = new Set([
  "help",
  "make",
  "write",
  "creat",
  "写",
  "帮",
  "帮忙",
  "帮助",
  "做",
]);

/**
 * A request verb's informativeness, whatever the shelf and everyday language say: under the
 * generic-word cut (`genericWord`, 0.4), so it is never a skill's evidence alone.
 */
export const REQUEST_VERB_INFORMATIVENESS = 0.3;
