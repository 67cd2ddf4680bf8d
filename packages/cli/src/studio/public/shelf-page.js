// Shelf: every resolved skill (scope, file, what it shadows, trust, usage, zero-use flag),
// a filter box and scope filter, and the diagnostics of files that could not be loaded.
import { get } from "./api.js";
import { el, errorLine, replace, time } from "./dom.js";

export async function shelfPage(root) {
  const data = await get("/api/shelf").catch((error) => error);
  if (data instanceof Error) return replace(root, errorLine(data));

  const search = el("input", {
    type: "search",
    placeholder: "Filter by name, description or file",
    dataset: { test: "filter" },
  });
  const scope = el(
    "select",
    { dataset: { test: "scope" } },
    el("option", { value: "" }, "all scopes"),
    ["project", "user", "builtin"].map((s) => el("option", { value: s }, s)),
  );
  const zeroOnly = el("input", { type: "checkbox" });
  const body = el("tbody");
  const count = el("span", { className: "muted" });

  const render = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const rows = data.skills.filter(
      (s) =>
        (!scope.value || s.scope === scope.value) &&
        (!zeroOnly.checked || s.zeroUse) &&
        words.every((w) => `${s.name} ${s.description} ${s.file}`.toLowerCase().includes(w)),
    );
    count.textContent = `${rows.length} of ${data.skills.length} skills`;
    replace(
      body,
      rows.map((s) =>
        el(
          "tr",
          { dataset: { test: "skill", name: s.name } },
          el(
            "td",
            {},
            el("strong", {}, s.name),
            s.role ? el("span", { className: "tag" }, "role") : null,
            s.hidden ? el("span", { className: "tag" }, "hidden from the model") : null,
            s.disabled ? el("span", { className: "tag", dataset: { test: "disabled" } }, "disabled") : null,
            el("div", { className: "muted small" }, s.description),
          ),
          el("td", {}, s.scope),
          el(
            "td",
            { className: "path" },
            s.file,
            s.shadows.map((o) =>
              el(
                "div",
                { className: "muted small" },
                `${o.reason === "duplicate-name" ? "duplicate ignored" : o.reason === "locked" ? "refused" : "shadows"} ${o.scope} ${o.file}`,
              ),
            ),
          ),
          el(
            "td",
            {},
            s.trust
              ? el("span", { className: `trust ${s.trust}` }, s.trust)
              : el("span", { className: "muted" }, "—"),
          ),
          el(
            "td",
            {},
            `${s.usage.count}×`,
            s.usage.lastUsed
              ? el("div", { className: "muted small" }, `last ${time(s.usage.lastUsed)}`)
              : null,
            s.zeroUse
              ? el(
                  "span",
                  { className: "tag warn", dataset: { test: "zero-use" } },
                  `unused ${data.zeroUseDays}+ days`,
                )
              : null,
          ),
        ),
      ),
    );
  };
  for (const control of [search, scope, zeroOnly]) control.addEventListener("input", render);
  render();

  const problems = data.diagnostics.filter(
    (d) => d.severity === "error" || !["shadowed", "duplicate-name", "locked"].includes(d.code),
  );
  replace(
    root,
    el("h1", {}, "Shelf"),
    el(
      "p",
      { className: "muted" },
      `From ${data.sources.map((s) => `${s.dir} (${s.scope})`).join(", ") || "no folders"}`,
    ),
    el("div", { className: "controls" }, search, scope, el("label", {}, zeroOnly, " unused only"), count),
    el(
      "table",
      { className: "grid", dataset: { test: "skills" } },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Skill", "Scope", "File", "Trust", "Usage"].map((h) => el("th", {}, h)),
        ),
      ),
      body,
    ),
    el("h2", {}, `Diagnostics (${problems.length})`),
    problems.length === 0
      ? el("p", { className: "muted" }, "Every file loaded without a problem.")
      : el(
          "ul",
          { className: "diagnostics", dataset: { test: "diagnostics" } },
          problems.map((d) =>
            el(
              "li",
              { className: d.severity },
              el(
                "span",
                { className: "path" },
                `${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ""}`,
              ),
              " ",
              el("span", { className: `severity ${d.severity}` }, d.severity),
              " ",
              el("code", {}, d.code),
              " ",
              d.message,
              el("div", { className: "muted small" }, `hint: ${d.hint}`),
            ),
          ),
        ),
  );
}
