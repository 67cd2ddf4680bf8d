/**
 * The SKILL.md `skillshelf init` writes: a valid skill whose frontmatter and body carry,
 * as comments, the description layers that make a skill routable and hard to misuse —
 * boundary, trigger signals, preconditions, output, examples — plus exclusions, which cut
 * wrong activations more than any other field.
 *
 * The placeholders say TODO so that `skillshelf lint` keeps pointing at them until the
 * author writes the real text; the file passes `skillshelf validate --strict` as written.
 */

/** The text that marks what the author still has to write. */
export const PLACEHOLDER = "TODO";

export function skillScaffold(name: string): string {
  // JSON strings are valid YAML double-quoted scalars: a name such as "123" or "yes" stays a string.
  const quotedName = JSON.stringify(name);
  return `---
# The description is what the model reads to decide whether this skill fits a request.
# Write it in layers, most important first:
#   1. boundary        what it does, and what it does NOT do (the "not" cuts misuse most)
#   2. trigger signals the words and intents that call for it ("when the user asks ...")
#   3. preconditions   the input it needs; without it the skill should ask, not guess
#   4. output          what it gives back, and whether anything is left to do after it
# The 5th layer, examples, goes in \`examples\` below.
# A one-liner such as "Check the weather" is too vague: it also fires on "what should I wear?".
name: ${quotedName}
description: >-
  ${PLACEHOLDER}: what this skill does, only for which cases, and what it never does.
  Use when the user asks to ${PLACEHOLDER}. Needs ${PLACEHOLDER}. Returns ${PLACEHOLDER}.
# When to use it, in a sentence the model can check a request against.
when_to_use: ${PLACEHOLDER}, when the user explicitly asks for it.
# Phrases that make this skill a candidate at once. Avoid single common words
# ("help", "write", "file"): they fire on almost every request.
triggers:
  - ${PLACEHOLDER} specific phrase
# Requests that look similar but belong elsewhere: a match on one of these vetoes the skill.
exclusions:
  - ${PLACEHOLDER} look-alike request
# Two or three real requests, as a user would type them.
examples:
  - ${PLACEHOLDER} a request this skill should handle
version: 0.1.0
---

# ${name}

<!--
  The body is loaded only when the skill is activated. Put the rules that must never be
  broken first, as a short numbered list: models follow the start of a long text best.
  Then the steps, then details and references (files in references/ are read on demand).
-->

1. ${PLACEHOLDER}: the rule that must hold every time.
2. ${PLACEHOLDER}: the first step.

<!-- Say what to do when a precondition is missing: ask the user, do not guess. -->
`;
}
