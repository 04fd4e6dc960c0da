/** The page of each source of a plan's ledger, and what a deliverable's page needs to link to them. */
import type { Hono } from "hono";
import { ID_PATTERN } from "../../domain/ids";
import type { Services } from "../../domain/ports";
import { citedRefsIn, type Evidence } from "../../domain/research/ledger";
import type { ResearchOutput } from "../../domain/research/outputs";
import { locatePassage } from "../../domain/sources/passage-context";
import type { VerificationStatus } from "../../domain/sources/verification";
import { webServices } from "../../platform/runtime";
import { type Snapshot, snapshotStore } from "../../platform/sources/snapshots";
import type { CitedSource } from "./deliverable";
import type { RefLink } from "./markdown";
import { type App, notFoundPage, render } from "./page";
import { planNameOf } from "./queries";
import { type SnapshotShown, SourcePage } from "./source-page";
import { type SnapshotView, snapshotExcerpt } from "./snapshot-window";
import { claimHref, sourceHref } from "./source-status";

/** A ledger ref as it appears in a path: E1 … E99999 (the ledger's numbering). */
const EVIDENCE_REF = /^E[1-9]\d{0,4}$/;

/**
 * The snapshot reference of the reading before the current one, kept by the last re-check after delivery (the
 * source's `recheck.previousSnapshot`); null until a re-check replaced one.
 */
function previousSnapshotOf(evidence: Evidence): string | null {
  const previous = evidence.recheck?.previousSnapshot ?? null;
  return previous !== null && /^[0-9a-f]{64}$/.test(previous) ? previous : null;
}

/**
 * The reading with its passage found again on the very text the verdict was reached on (the ledger keeps the
 * passage's words, not its offsets): the domain's one locator, the stored passage first, then the quote check.
 */
function shown(snapshot: Snapshot | null, evidence: Evidence, verdict: { status: VerificationStatus; passage: string | null }, view: SnapshotView): SnapshotShown | null {
  if (!snapshot) return null;
  const span = locatePassage(snapshot.text, verdict, evidence.quote);
  return { snapshot, excerpt: snapshotExcerpt(snapshot.text, span, view) };
}

/** Where a deliverable's cited refs lead: in the dashboard, each source's page and each claim on its plan's page. */
export interface RefLinks {
  source(planId: string, ref: string): string;
  claim(planId: string, ref: string): string | null;
}

const DASHBOARD_LINKS: RefLinks = { source: sourceHref, claim: claimHref };

/**
 * The links of a deliverable's page: each ref its plan's ledger holds leads to its source (E#) or claim (C#); the
 * ledger's sources it cites (in its text or its citations), first cited first. None without a plan or ledger.
 */
export async function citedSourcesOf(services: Services, orgId: string, output: ResearchOutput, links: RefLinks = DASHBOARD_LINKS): Promise<{ hrefOf: RefLink; sources: CitedSource[] }> {
  const planId = output.planId;
  const ledger = planId ? await services.ledger.read(orgId, planId, false) : null;
  if (!planId || !ledger) return { hrefOf: () => null, sources: [] };
  const evidence = new Map(ledger.evidence.map((e) => [e.ref, e]));
  const claims = new Set(ledger.claims.map((c) => c.ref));
  const hrefOf: RefLink = (ref) => (evidence.has(ref) ? links.source(planId, ref) : claims.has(ref) ? links.claim(planId, ref) : null);
  const refs = new Set([...citedRefsIn(output.content).evidence, ...output.citations.flatMap((c) => (c.ref && /^E\d+$/.test(c.ref) ? [c.ref] : []))]);
  const sources = [...refs].flatMap((ref) => {
    const source = evidence.get(ref);
    return source ? [{ ref, title: source.title, url: source.url, href: links.source(planId, ref), quote: source.quote, verification: source.verification }] : [];
  });
  return { hrefOf, sources };
}

export function registerSourceRoutes(app: Hono<App>): void {
  app.get("/plans/:planId/sources/:ref", async (c) => {
    const planId = c.req.param("planId");
    const ref = c.req.param("ref");
    if (!ID_PATTERN.test(planId) || !EVIDENCE_REF.test(ref)) return notFoundPage(c);
    const { orgId } = c.get("session");
    const { services, home } = await webServices(c.env, orgId);
    // Read under the session's org: another org's plan has no ledger here, so it is the same 404 as none at all.
    const [ledger, planName] = await Promise.all([services.ledger.read(orgId, planId, true), planNameOf(home, orgId, planId)]);
    const evidence = ledger.evidence.find((e) => e.ref === ref);
    if (!evidence) return notFoundPage(c);
    const view: SnapshotView = c.req.query("view") === "whole" ? "whole" : "window";
    const store = snapshotStore(c.env.SOURCE_SNAPSHOTS);
    const previousRef = previousSnapshotOf(evidence);
    const [current, previous] = await Promise.all([
      evidence.verification.snapshot ? store.get(orgId, evidence.verification.snapshot) : null,
      previousRef ? store.get(orgId, previousRef) : null,
    ]);
    const selfHref = sourceHref(planId, ref);
    return render(c, {
      title: `${ref}: ${evidence.title}`,
      section: "plans",
      children: (
        <SourcePage
          planId={planId}
          planName={planName}
          evidence={evidence}
          current={shown(current, evidence, { status: evidence.verification.status, passage: evidence.verification.passage ?? null }, view)}
          // The previous reading's passage is looked for whatever the current verdict: it was verified then. The stored
          // passage is the current reading's, so there the quote alone is placed.
          previous={shown(previous, evidence, { status: "verified", passage: null }, "window")}
          view={view}
          selfHref={selfHref}
        />
      ),
    });
  });
}
