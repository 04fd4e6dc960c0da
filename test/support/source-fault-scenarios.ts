import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { Env } from "../../src/env";
import { homeDatabase } from "../../src/platform/org-homes";
import { clientTextsPrefix } from "../../src/platform/sources/client-texts";
import { snapshotsPrefix } from "../../src/platform/sources/snapshots";
import { type Harness, must, type Outcome, planArgs, type Scenario, type Tenant } from "./fault-scenarios";
import { drainSourceChecks } from "./faults";
import { restCall } from "./platform-fault-scenarios";
import { steps } from "./plans";

/**
 * The fault battery's scenarios for source checks: the source-check queue's consumer (a recorded source read
 * from a loopback fixture page, its verdict written), and a re-check after delivery that finds the page changed
 * (the verdict, the deliverable's record of it, and one `research_output.sources_changed` event). The messages
 * are the ones the Worker sent to the source-check queue over the faulty env, drained through the Worker's real
 * consumer with the queue's redelivery (faults.ts `drainSourceChecks`).
 */

const QUOTE = "solid-state cells reached 500 Wh/kg in the lab";

/**
 * The battery's page that changes (test/support/source-pages.global.ts `/changing/NAME`): one name for every run,
 * so that two runs' exports name the same URL; the battery runs its scenarios one at a time, and each run
 * restores the page first.
 */
const CHANGING = "fault-battery-recheck";
const pageUrl = (name: string) => `${inject("sourcePagesOrigin")}/changing/${name}`;
async function setPage(name: string, init: RequestInit): Promise<void> {
  const response = await fetch(`${inject("sourcePagesOrigin")}/control/changing/${name}`, init);
  if (response.status !== 204) throw new Error(`the fixture page ${name} was not set: HTTP ${response.status}`);
}

const cited = (url: string) => ({ url, title: "Solid-state batteries reach 500 Wh/kg", facts: "Cells reached 500 Wh/kg", subtopic: "Density", quote: QUOTE });

/** A source's verdict, with its mark after delivery when it has one ("partial, changed") and what it rests on when not the page ("verified on client_text"). */
async function verdictOf(t: Tenant, planId: string, n: number): Promise<string> {
  const home = await homeDatabase(env as unknown as Env, t.orgId);
  const row = await home
    .prepare("SELECT verification_status AS status, verification_changed AS changed, verification_basis AS basis FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = ?")
    .bind(t.orgId, planId, n)
    .first<{ status: string | null; changed: string | null; basis: string | null }>();
  return [row?.status ?? "none", ...(row?.changed ? [row.changed] : [])].join(", ") + (row?.basis === "client_text" ? " on client_text" : "");
}

/** The org's count of page bytes equals the bytes of the snapshots and client texts it keeps: each object counted once, none uncounted. */
export async function snapshotBytesProblems(orgId: string): Promise<string[]> {
  const home = await homeDatabase(env as unknown as Env, orgId);
  const counted = (await home.prepare("SELECT snapshot_bytes FROM orgs WHERE id = ?").bind(orgId).first<{ snapshot_bytes: number }>())?.snapshot_bytes;
  let kept = 0;
  for (const prefix of [snapshotsPrefix(orgId), clientTextsPrefix(orgId)]) {
    kept += (await env.SOURCE_SNAPSHOTS.list({ prefix })).objects.reduce((sum, o) => sum + o.size, 0);
  }
  return counted === kept ? [] : [`the org counts ${counted} page bytes and keeps ${kept}`];
}

/** Drains the source-check queue as the platform would: the consumer's failures are redelivered until it is empty. */
async function checked(h: Harness): Promise<Outcome> {
  try {
    const rounds = await drainSourceChecks(h.plan, h.env);
    return { failed: false, detail: `drained in ${rounds} round(s)` };
  } catch (error) {
    return { failed: true, detail: String(error) };
  }
}

async function recordedSource(h: Harness, t: Tenant, url: string, sourceText?: string): Promise<string> {
  const planId = String((await must(h, t.key, "create_research_plan", { ...planArgs(steps("search", "synthesize")), citationPolicy: "report" })).planId);
  await must(h, t.key, "record_evidence", { planId, evidence: [{ ...cited(url), ...(sourceText ? { sourceText } : {}) }] });
  if (h.plan.sourceChecks.length !== 1) throw new Error(`record_evidence sent ${h.plan.sourceChecks.length} source checks, expected 1`);
  return planId;
}

export const SOURCE_SCENARIOS: Scenario[] = [
  {
    // A recorded source's check waits in the queue; the consumer reads the page, stores its snapshot, writes the verdict.
    name: "source-check consumer",
    repeatable: true,
    prepare: async (h, t) => ({ planId: await recordedSource(h, t, `${inject("sourcePagesOrigin")}/article.html`) }),
    act: (h) => checked(h),
    check: async (_h, t, p) => {
      const verdict = await verdictOf(t, String(p.planId), 1);
      return [...(verdict === "verified" ? [] : [`the source's verdict is ${verdict}, the fault-free run's is verified`]), ...(await snapshotBytesProblems(t.orgId))];
    },
  },
  {
    // A page that refuses Cairn (403), with the text the assistant read: the quote is checked against that text.
    name: "source-check consumer (the assistant's text of a page Cairn cannot read)",
    repeatable: true,
    prepare: async (h, t) => ({
      planId: await recordedSource(h, t, `${inject("sourcePagesOrigin")}/forbidden`, "In March, the team reported that solid-state cells reached 500 Wh/kg in the lab."),
    }),
    act: (h) => checked(h),
    check: async (_h, t, p) => {
      const verdict = await verdictOf(t, String(p.planId), 1);
      return [...(verdict === "verified on client_text" ? [] : [`the source's verdict is ${verdict}, the fault-free run's is verified on client_text`]), ...(await snapshotBytesProblems(t.orgId))];
    },
  },
  {
    // A delivered source's page changed: an admin's re-check (REST) reads it again, marks it changed, and the deliverable announces it once.
    name: "source re-check after delivery (REST)",
    repeatable: true,
    prepare: async (h, t) => {
      await setPage(CHANGING, { method: "DELETE" });
      const planId = await recordedSource(h, t, pageUrl(CHANGING));
      const first = await checked(h);
      if (first.failed || (await verdictOf(t, planId, 1)) !== "verified") throw new Error(`the source was not verified before delivery: ${first.detail}`);
      await must(h, t.key, "store_research_output", { planId, title: "Solid-state batteries", mediaType: "markdown", content: "Cells reached 500 Wh/kg [E1]." });
      return { planId };
    },
    stage: () => setPage(CHANGING, { method: "PUT", body: JSON.stringify({ type: "text/html", body: "<title>Solid-state batteries reach 500 Wh/kg</title><p>The article was rewritten; no figures remain.</p>" }) }),
    act: async (h, t) => {
      const asked = await restCall(h, t.key, "/sources/recheck", { method: "POST" });
      if (asked.failed) return asked;
      return checked(h);
    },
    check: async (_h, t, p) => {
      const verdict = await verdictOf(t, String(p.planId), 1);
      // The rewritten page's only "500 Wh/kg" is in its <title>, which is not the page's text a reader reads: the quote is not found.
      return [...(verdict === "not_found, changed" ? [] : [`the re-checked source's verdict is ${verdict}, the fault-free run's is not_found, changed (the quote gone, the page changed)`]), ...(await snapshotBytesProblems(t.orgId))];
    },
  },
];
