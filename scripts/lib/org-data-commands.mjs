/**
 * The operator CLI's org data commands (`export`, `import`, `org delete`): their usage, help and output.
 * The work itself is in org-data.mjs (through the Worker, as an account made for the one command).
 */
import * as lib from "./local.mjs";
import * as orgData from "./org-data.mjs";

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function orgDataCommands(emit) {
  return {
    export: {
      usage: "export --org SLUG --out FILE [--tool-calls] [--url URL]",
      summary: "write everything of an org to one NDJSON file (streamed)",
      flags: ["org", "out", "tool-calls", "url"],
      required: ["org", "out"],
      details: `Members (no password hashes), skill executions, plans with every version, step, audit entry and
  review, artifacts and deliverables with every version, feedback, the evidence ledger with each
  source's verification and the page snapshot (or text an assistant sent) it was judged on, search sessions, API key metadata (never keys); --tool-calls adds the tool-call log. Runs through the
  Worker: locally the server running on the same state (npm start), else a wrangler dev started for it (or --url a running one); with
  --remote, the deployment (its URL from cairn.deploy.json, or --url).`,
      run: async (o, t) => {
        const r = await orgData.exportOrgToFile({ org: o.org, out: o.out, toolCalls: Boolean(o["tool-calls"]), url: o.url, ...t });
        emit(o, r, () => `Exported "${o.org}" to ${r.file} (${(r.bytes / 1024).toFixed(1)} KiB): ${Object.entries(r.counts).map(([k, n]) => `${n} ${k}`).join(", ")}.`);
      },
    },
    import: {
      usage: "import --org SLUG --in FILE [--restore-members] [--url URL]",
      summary: "load an export into an org with no research yet",
      flags: ["org", "in", "restore-members", "url"],
      required: ["org", "in"],
      details: `Create the org first (org create); it needs no admin. Ids are renewed consistently, versions
  and timestamps kept, plans resume where they were. The export's members who already belong to the
  org get their records back, with the role they have. Everyone else in the file is added only with
  --restore-members: by e-mail, with the file's role (admins included); an e-mail with no account here
  gets one without a password (set one with user add --reset-password). The output lists whom it
  matched and whom it created. API keys are not recreated. Sources keep their verifications, each judged
  again on the page snapshot (or assistant's text) the file carries; sources without one are checked after the import.
  A bad or incomplete file changes nothing.`,
      run: async (o, t) => {
        const r = await orgData.importOrgFromFile({ org: o.org, input: o.in, url: o.url, restoreMembers: Boolean(o["restore-members"]), ...t });
        emit(o, r, () => importReport(o.org, r));
      },
    },
    "org delete": {
      usage: "org delete SLUG --yes [--url URL]",
      summary: "erase an org and everything of it, for good",
      flags: ["yes", "url"],
      required: [],
      positionals: ["slug"],
      details: `Erases every row of the org, every plan's and search session's storage, its page snapshots, its members' OAuth grants
  and dashboard sessions for it, its API keys and the org; people in no other org are removed.
  Export it first if you may need it. --yes is required.`,
      run: async (o, t) => {
        if (!o.slug) throw new lib.UsageError("Name the org: org delete SLUG --yes.");
        if (!o.yes) throw new lib.UsageError(`This erases "${o.slug}" and everything in it for good; add --yes to confirm.`);
        const r = await orgData.deleteOrg({ org: o.slug, url: o.url, ...t });
        emit(o, r, () => `Erased "${r.org}": ${r.plans} plans, ${r.sessions} search sessions, ${r.members} memberships, and every record of it.`);
      },
    },
  };
}

/** Tables whose rows the summary already counts by name (the plans index has a row per plan, the same number). */
const COUNTED_APART = new Set(["plans", "search_sessions"]);

/** The import's answer for a person: what came in, whom it placed, what to do next. */
export function importReport(slug, r) {
  const people = (list) => list.map((m) => `${m.email} (${m.role})`).join(", ");
  const rows = Object.entries(r.rows).filter(([table]) => !COUNTED_APART.has(table));
  const waiting = r.plansAwaitingApproval ? ` (${r.plansAwaitingApproval} waiting for a person's approval here)` : "";
  const lines = [`Imported into "${slug}": ${r.plans} plans${waiting}, ${r.searchSessions} search sessions, ${r.snapshots ?? 0} page snapshots, ${r.clientTexts ?? 0} texts assistants sent for pages, ${rows.map(([k, n]) => `${n} ${k}`).join(", ") || "no other rows"}.`];
  const placed = r.restoredByEmail;
  if (placed) {
    lines.push(`Members restored: ${r.members.restored}.`);
    if (placed.matched.length) lines.push(`  Matched by e-mail: ${people(placed.matched)}.`);
    if (placed.created.length) lines.push(`  Created without a password (set one with user add --reset-password): ${people(placed.created)}.`);
    if (placed.alreadyMembers.length) lines.push(`  Already in the org, role kept: ${placed.alreadyMembers.join(", ")}.`);
  } else {
    lines.push(`Members: ${r.members.restored} already in the org restored, ${r.members.notRestored} not restored${r.members.notRestored ? " (add them by e-mail with --restore-members, or with user add)" : ""}.`);
  }
  if (Object.keys(r.skipped).length) lines.push(`Not recreated: ${Object.entries(r.skipped).map(([k, n]) => `${n} ${k}`).join(", ")}.`);
  if (!r.orgHasAdmin) lines.push(`"${slug}" has no admin yet: add one with user add --org ${slug} --email EMAIL --role admin.`);
  return lines.join("\n");
}
