// Improvements: each pending proposal as a card — rationale, the evidence quoted from the
// run (highlighted), the exact change side by side, the guards' verdict, Accept and Reject
// (a reason is required) — then the proposals already decided.
import { get, post } from "./api.js";
import { diffView } from "./diff-view.js";
import { el, errorLine, highlight, replace, time } from "./dom.js";

// The run's messages that hold the evidence (kept with the proposal), quotes marked where
// they were said; quotes found in no kept message (older proposals keep none) are listed.
function transcript(proposal) {
  const messages = proposal.excerpt ?? [];
  const shown = new Set();
  const rows = messages.map((message) => {
    const { parts, missing } = highlight(message.content, proposal.evidence);
    for (const quote of proposal.evidence) if (!missing.includes(quote)) shown.add(quote);
    return el(
      "div",
      { className: `turn ${message.role}`, dataset: { test: "transcript-turn" } },
      el("span", { className: "role" }, message.role),
      el("p", {}, parts),
    );
  });
  return { rows, unplaced: proposal.evidence.filter((quote) => !shown.has(quote)) };
}

function evidence(proposal) {
  const feedback = proposal.outcome.feedback ?? "";
  const { parts } = highlight(feedback, proposal.evidence);
  const { rows, unplaced } = transcript(proposal);
  return el(
    "section",
    { className: "evidence", dataset: { test: "evidence" } },
    el("h4", {}, `Evidence — from a run that ended: ${proposal.outcome.status}`),
    feedback ? el("p", { className: "feedback" }, "“", parts, "”") : null,
    rows.length > 0 ? el("div", { className: "transcript", dataset: { test: "transcript" } }, rows) : null,
    unplaced.map((quote) => el("blockquote", {}, el("mark", {}, quote))),
  );
}

function guards(check) {
  if (!check) return null;
  const stats = check.stats;
  const size = stats
    ? `body ${stats.growthTokens >= 0 ? "+" : ""}${stats.growthTokens} tokens (limit +${stats.allowedGrowthTokens}), ${stats.changedLines} line(s) added or removed`
    : "";
  return el(
    "div",
    { className: check.ok ? "guards ok" : "guards refused", dataset: { test: "guards" } },
    check.ok ? `Guards: ok — ${size}` : "Guards: refused",
    check.ok
      ? null
      : el(
          "ul",
          {},
          check.violations.map((v) => el("li", {}, `${v.guard}: ${v.message}`)),
        ),
  );
}

function card(preview, reload) {
  const p = preview.proposal;
  const status = el("p", { className: "status", dataset: { test: "card-status" } });
  const reason = el("input", {
    type: "text",
    placeholder: "Why not? (later analyses are told)",
    dataset: { test: "reason" },
  });
  const acceptButton = el("button", { className: "primary", dataset: { test: "accept" } }, "Accept");
  const rejectButton = el("button", { dataset: { test: "reject" }, disabled: true }, "Reject");
  reason.addEventListener("input", () => {
    rejectButton.disabled = reason.value.trim() === "";
  });
  const decide = async (action) => {
    acceptButton.disabled = true;
    rejectButton.disabled = true;
    status.textContent = action === "accept" ? "Writing…" : "Recording…";
    try {
      const result =
        action === "accept"
          ? await post("/api/improvements/accept", { id: p.id })
          : await post("/api/improvements/reject", { id: p.id, reason: reason.value });
      status.textContent =
        action === "accept"
          ? `Accepted as version ${result.version ?? "(unversioned)"}${result.rebased ? " (re-based)" : ""}.`
          : "Rejected; later analyses are told why.";
      await reload();
    } catch (error) {
      status.textContent = String(error.message);
      status.className = "status error";
      acceptButton.disabled = !preview.applicable;
      rejectButton.disabled = reason.value.trim() === "";
    }
  };
  acceptButton.addEventListener("click", () => decide("accept"));
  rejectButton.addEventListener("click", () => decide("reject"));
  if (preview.error || !preview.applicable || preview.check?.ok === false) acceptButton.disabled = true;

  return el(
    "article",
    { className: "card", dataset: { test: "proposal", id: p.id, skill: p.skill } },
    el("h3", {}, el("span", { className: "tag" }, p.skill), ` ${p.change} ${p.target}: ${p.title}`),
    el(
      "p",
      { className: "muted small" },
      `${p.id} · made ${time(p.createdAt)} against ${p.baseVersion ?? "sha256"} ${p.baseHash.slice(0, 12)}…`,
    ),
    p.changesDescription
      ? el("p", { className: "warn" }, "Changes the description (what matching sees).")
      : null,
    el("p", { className: "rationale" }, el("strong", {}, "Rationale: "), p.rationale),
    evidence(p),
    preview.error ? el("p", { className: "error" }, preview.error) : null,
    preview.stale
      ? el(
          "p",
          { className: "warn" },
          "The skill changed since this proposal was made; accepting re-bases it where its target text still applies.",
        )
      : null,
    preview.applicable && preview.diff
      ? diffView(preview.diff, ["current", "after accepting"])
      : preview.error
        ? null
        : el(
            "p",
            { className: "warn" },
            "Its edits do not apply to the current file as written: accepting needs a model merge (from your app), or reject it and edit by hand.",
          ),
    guards(preview.check),
    (preview.flags ?? []).map((flag) => el("p", { className: "warn" }, `warning: ${flag}`)),
    preview.record
      ? el(
          "p",
          { className: "muted small" },
          `Record: ${preview.record.positive} run(s) went well (${preview.record.positiveOnCurrent} on the current version), ${preview.record.problems} analysed with problems; ${preview.record.accepted} accepted, ${preview.record.rejected} rejected`,
        )
      : null,
    el("div", { className: "controls" }, acceptButton, reason, rejectButton),
    status,
  );
}

export async function improvementsPage(root) {
  const data = await get("/api/improvements").catch((error) => error);
  if (data instanceof Error) return replace(root, errorLine(data));
  const reload = () => improvementsPage(root);
  replace(
    root,
    el("h1", {}, "Improvements"),
    el("h2", {}, `Pending (${data.pending.length})`),
    data.pending.length === 0
      ? el("p", { className: "muted", dataset: { test: "no-pending" } }, "No pending proposals.")
      : data.pending.map((preview) => card(preview, reload)),
    el("h2", {}, `Decided (${data.decided.length})`),
    el(
      "table",
      { className: "grid", dataset: { test: "decided" } },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["When (UTC)", "Skill", "Decision", "Title", "Reason or result"].map((h) => el("th", {}, h)),
        ),
      ),
      el(
        "tbody",
        {},
        data.decided.map((p) =>
          el(
            "tr",
            { dataset: { test: "decided-row", id: p.id, status: p.status } },
            el("td", {}, time(p.decidedAt)),
            el("td", {}, p.skill),
            el("td", {}, p.status),
            el("td", {}, p.title),
            el(
              "td",
              {},
              p.status === "rejected"
                ? (p.reason ?? "")
                : p.result
                  ? `version ${p.result.version ?? "-"}, merged by ${p.result.mergedBy}`
                  : "",
            ),
          ),
        ),
      ),
    ),
  );
}
