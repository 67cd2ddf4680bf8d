// History: a skill's kept versions as a timeline, the diff between any two, Rollback with
// a confirmation step (refused if the file changed meanwhile), and the ledger of decisions.
import { get, post } from "./api.js";
import { diffView } from "./diff-view.js";
import { el, errorLine, replace, time } from "./dom.js";

const SOURCE = {
  write: "write",
  rollback: "rollback",
  accepted: "improvement",
  "external-edit": "hand edit",
  initial: "before first write",
};

function ledgerTable(records) {
  if (records.length === 0) return el("p", { className: "muted" }, "No decisions recorded yet.");
  return el(
    "table",
    { className: "grid", dataset: { test: "ledger" } },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["When (UTC)", "Skill", "Type", "Version", "Proposal", "Reason or note"].map((h) => el("th", {}, h)),
      ),
    ),
    el(
      "tbody",
      {},
      records.map((r) =>
        el(
          "tr",
          { dataset: { test: "ledger-row", type: r.type } },
          el("td", {}, time(r.at)),
          el("td", {}, r.skill),
          el("td", {}, r.type),
          el("td", {}, r.version ?? ""),
          el("td", { className: "path" }, r.proposal ?? ""),
          el("td", {}, r.reason ?? r.note ?? (r.to ? `to ${r.to}` : "")),
        ),
      ),
    ),
  );
}

async function skillHistory(name, panel) {
  const [history, ledger] = await Promise.all([
    get("/api/history", { skill: name }),
    get("/api/ledger", { skill: name }),
  ]).catch((error) => [error]);
  if (history instanceof Error) return replace(panel, errorLine(history));
  const { versions } = history;
  const current = versions.find((v) => v.current);
  const diffPanel = el("div", { dataset: { test: "diff-panel" } });
  const ref = (v, i) => (v.current ? "current" : v.recorded ? v.id : `~${i}`);
  const pick = (label, selected) =>
    el(
      "select",
      { dataset: { test: `diff-${label}` } },
      versions.map((v, i) =>
        el(
          "option",
          { value: ref(v, i), selected: i === selected },
          `${v.current ? "current" : `~${i}`} · ${v.version ?? "-"} · ${time(v.at)}`,
        ),
      ),
    );
  const a = pick("a", Math.min(1, versions.length - 1));
  const b = pick("b", 0);
  const showDiff = async () => {
    const data = await get("/api/diff", { skill: name, a: a.value, b: b.value }).catch((error) => error);
    if (data instanceof Error) return replace(diffPanel, errorLine(data));
    replace(
      diffPanel,
      diffView(data.patch, [
        a.selectedOptions[0]?.textContent ?? a.value,
        b.selectedOptions[0]?.textContent ?? b.value,
      ]),
    );
  };

  const rollbackCell = (v, i) => {
    if (v.current || !v.recorded) return el("td", {}, v.current ? el("strong", {}, "current") : "");
    const status = el("span", { className: "status" });
    const confirm = el(
      "button",
      { className: "danger", hidden: true, dataset: { test: "confirm-rollback" } },
      "Confirm rollback",
    );
    const cancel = el("button", { hidden: true }, "Cancel");
    const start = el("button", { dataset: { test: "rollback" } }, `Roll back to ~${i}`);
    const toggle = (asking) => {
      start.hidden = asking;
      confirm.hidden = !asking;
      cancel.hidden = !asking;
      status.textContent = asking ? `Restore version ${v.version ?? v.id} as a new version? (undoable)` : "";
    };
    start.addEventListener("click", () => toggle(true));
    cancel.addEventListener("click", () => toggle(false));
    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      try {
        // Refused (CONFLICT) if the file changed since this page showed it.
        const result = await post("/api/rollback", { skill: name, ref: v.id, expectedHash: current?.hash });
        status.textContent = `Restored as version ${result.version ?? "(unversioned)"}.`;
        await skillHistory(name, panel);
      } catch (error) {
        confirm.disabled = false;
        status.textContent = String(error.message);
        status.className = "status error";
      }
    });
    return el("td", {}, start, confirm, cancel, " ", status);
  };

  replace(
    panel,
    el("h2", {}, name),
    el("p", { className: "path muted" }, history.file ?? ""),
    versions.every((v) => !v.recorded)
      ? el(
          "p",
          { className: "muted" },
          "No versions kept yet: history starts with the first managed write (a write, an accepted improvement, or a rollback).",
        )
      : null,
    el(
      "table",
      { className: "grid timeline", dataset: { test: "versions" } },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Ref", "Version", "Recorded (UTC)", "Source", "sha256", ""].map((h) => el("th", {}, h)),
        ),
      ),
      el(
        "tbody",
        {},
        versions.map((v, i) =>
          el(
            "tr",
            {
              className: v.current ? "current" : "",
              dataset: { test: "version", ref: v.current ? "current" : `~${i}` },
            },
            el("td", {}, v.current ? "current" : `~${i}`),
            el("td", {}, v.version ?? "-"),
            el("td", {}, time(v.at)),
            el("td", {}, SOURCE[v.source] ?? v.source ?? ""),
            el(
              "td",
              { className: "path" },
              v.hash.slice(0, 12),
              v.intact ? "" : el("span", { className: "error" }, " DAMAGED"),
            ),
            rollbackCell(v, i),
          ),
        ),
      ),
    ),
    versions.length > 1
      ? el(
          "div",
          { className: "controls" },
          "Diff ",
          a,
          " → ",
          b,
          el("button", { onclick: showDiff, dataset: { test: "show-diff" } }, "Show diff"),
        )
      : null,
    diffPanel,
    el("h3", {}, "Ledger"),
    ledger instanceof Error ? errorLine(ledger) : ledgerTable(ledger.records),
  );
  if (versions.length > 1) await showDiff();
}

export async function historyPage(root, selected) {
  const shelf = await get("/api/shelf").catch((error) => error);
  if (shelf instanceof Error) return replace(root, errorLine(shelf));
  const names = shelf.skills.filter((s) => s.scope !== "builtin").map((s) => s.name);
  const panel = el("div");
  const chooser = el(
    "select",
    { dataset: { test: "history-skill" } },
    el("option", { value: "" }, "choose a skill"),
    names.map((n) => el("option", { value: n, selected: n === selected }, n)),
  );
  const all = el("div");
  chooser.addEventListener("change", () => {
    if (chooser.value) skillHistory(chooser.value, panel);
    else replace(panel);
  });
  replace(root, el("h1", {}, "History"), el("div", { className: "controls" }, "Skill ", chooser), panel, all);
  if (selected && names.includes(selected)) await skillHistory(selected, panel);
  else {
    const ledger = await get("/api/ledger").catch((error) => error);
    replace(
      all,
      el("h2", {}, "Ledger (every skill)"),
      ledger instanceof Error ? errorLine(ledger) : ledgerTable(ledger.records),
    );
  }
}
