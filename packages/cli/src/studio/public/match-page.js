// Match explorer: a message → stage-1 candidates with score bars and reasons, the vetoes
// with the exclusion that fired, the ambiguity flag, and the catalog text exactly as the
// model would get it, with its token count against the budget.
import { get } from "./api.js";
import { el, errorLine, replace } from "./dom.js";

export function matchPage(root) {
  const input = el("input", {
    type: "text",
    placeholder: "Type a message as the user would",
    dataset: { test: "message" },
    size: 60,
  });
  const hidden = el("input", { type: "checkbox" });
  const results = el("div", { dataset: { test: "match-results" } });
  const form = el(
    "form",
    {
      className: "controls",
      onsubmit: (event) => {
        event.preventDefault();
        run();
      },
    },
    input,
    el("label", {}, hidden, " include hidden skills"),
    el("button", { type: "submit", dataset: { test: "match" } }, "Match"),
  );

  async function run() {
    if (input.value.trim() === "") return;
    replace(results, el("p", { className: "muted" }, "Matching…"));
    const data = await get("/api/match", { message: input.value, hidden: hidden.checked ? "1" : "" }).catch(
      (e) => e,
    );
    if (data instanceof Error) return replace(results, errorLine(data));
    const { result, catalog } = data;
    replace(
      results,
      el("h2", {}, "Candidates"),
      result.candidates.length === 0
        ? el(
            "p",
            { dataset: { test: "no-candidate" } },
            `No candidate: no skill of ${data.skills} applies to this message.`,
          )
        : el(
            "ol",
            { className: "candidates" },
            result.candidates.map((c) =>
              el(
                "li",
                { dataset: { test: "candidate", name: c.name } },
                el("strong", {}, c.name),
                " ",
                el("meter", { min: 0, max: 1, value: c.score, title: c.score.toFixed(3) }),
                " ",
                el("span", { className: "score" }, c.score.toFixed(3)),
                el(
                  "ul",
                  { className: "reasons" },
                  c.why.map((w) => el("li", {}, w)),
                ),
              ),
            ),
          ),
      result.ambiguous
        ? el(
            "p",
            { className: "warn", dataset: { test: "ambiguous" } },
            "Ambiguous: the top two are too close to call; a host may ask the user which one.",
          )
        : null,
      result.vetoed.length > 0
        ? [
            el("h2", {}, "Vetoed"),
            el(
              "ul",
              {},
              result.vetoed.map((v) =>
                el(
                  "li",
                  { dataset: { test: "vetoed", name: v.name } },
                  el("strong", {}, v.name),
                  ` — exclusion "${v.exclusion}" matched "${v.matched}"`,
                ),
              ),
            ),
          ]
        : null,
      el("h2", {}, "Catalog the model gets"),
      el(
        "p",
        { dataset: { test: "budget" } },
        el("meter", { min: 0, max: catalog.budget, value: catalog.tokens, high: catalog.budget * 0.9 }),
        ` ${catalog.tokens} tokens (estimate) of a ${catalog.budget}-token budget`,
        catalog.candidates.length > 0 ? `; candidates first: ${catalog.candidates.join(", ")}` : "",
      ),
      el("pre", { className: "catalog", dataset: { test: "catalog" } }, catalog.text),
    );
  }

  replace(root, el("h1", {}, "Match explorer"), form, results);
  input.focus();
}
