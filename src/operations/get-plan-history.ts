import { z } from "zod";
import { clipJson, clipText } from "../domain/clip";
import { validationError } from "../domain/errors";
import type { HistoryPage } from "../domain/plans/engine";
import type { StepSnapshot } from "../domain/plans/machine";
import { defineOperation } from "./operation";
import { ParamLimit } from "./params";
import { fillBudget, ParamPlanId } from "./plan-views";

const Actor = { actorUserId: z.string(), actorClientId: z.string().nullable(), createdAt: z.string() };

const DEFAULT_LIMIT = 20;
/** Characters of JSON per page for each stream, so one page shows both versions and audit entries. */
const PAGE_CHARS = { versions: 11_000, audit: 8_000, version: 18_000 } as const;
/**
 * A listed version shows this much: rationale and instructions clipped, at most SNAPSHOTS steps a side. `version`
 * reads one whole. Audit details repeat text kept whole elsewhere (rationales in versions, review feedback in
 * get_research_context, the cancel reason in get_plan_status), so they are only clipped.
 */
const LISTED = { rationale: 300, instructions: 100, snapshots: 10, detail: { stringChars: 300, budget: 2_500 } } as const;

type Version = HistoryPage["versions"][number];
type Snapshot = StepSnapshot;

/** Cursors: "<versions below>.<audit seq below>" for the lists (0: that list is done), "s<n>" within one version. */
const CURSOR = /^(\d{1,12}\.\d{1,12}|s\d{1,6})$/;

export const getPlanHistory = defineOperation({
  name: "get_plan_history",
  title: "Get plan history",
  description:
    "A plan's versions (change, rationale, steps before/after, clipped; version N: one whole) and audit trail, newest first.",
  scope: "research:read",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    planId: ParamPlanId,
    version: z.number().int().min(1).optional(),
    limit: ParamLimit.optional(),
    cursor: z.string().regex(CURSOR, "Pass nextCursor unchanged").optional(),
  }),
  output: z.object({
    versions: z.array(
      z.object({ version: z.number(), kind: z.string(), rationale: z.string(), before: z.unknown(), after: z.unknown(), truncated: z.boolean(), ...Actor }),
    ),
    audit: z.array(z.object({ action: z.string(), stepId: z.string().nullable(), detail: z.unknown(), ...Actor })),
    nextCursor: z.string().nullable(),
  }),
  rest: { method: "get", path: "/plans/{planId}/history" },
  async handler(input, ctx) {
    const cursor = input.cursor ?? null;
    if (input.version !== undefined) {
      if (cursor !== null && !cursor.startsWith("s")) throw badCursor();
      const page = await ctx.services.plans.history(ctx.principal.orgId, input.planId, null, 0);
      const version = page.versions.find((candidate) => candidate.version === input.version);
      if (!version) throw validationError(`The plan has no version ${input.version}.`, [{ path: "version", message: "No such version" }]);
      return wholeVersion(version, cursor === null ? 0 : Number(cursor.slice(1)));
    }
    if (cursor?.startsWith("s")) throw badCursor();
    const [versionsBelow, auditBelow] = cursor === null ? [null, null] : cursor.split(".").map(Number);
    const limit = input.limit ?? DEFAULT_LIMIT;
    const page = await ctx.services.plans.history(ctx.principal.orgId, input.planId, auditBelow || null, auditBelow === 0 ? 0 : limit);
    const remaining = versionsBelow === 0 ? [] : page.versions.filter((version) => versionsBelow == null || version.version < versionsBelow).reverse();
    const versions = fillBudget(remaining.slice(0, limit).map(listedVersion), PAGE_CHARS.versions);
    const audit = auditBelow === 0 ? [] : fillBudget(page.audit, PAGE_CHARS.audit, (entry) => JSON.stringify(auditView(entry)).length);
    const moreVersions = versions.length < remaining.length;
    const moreAudit = auditBelow !== 0 && (audit.length < page.audit.length || page.nextAuditSeq !== null);
    const lastVersion = versions[versions.length - 1]?.version;
    const lastSeq = audit[audit.length - 1]?.seq;
    const nextVersions = moreVersions ? (lastVersion ?? versionsBelow ?? 0) : 0;
    const nextAudit = moreAudit ? (lastSeq ?? auditBelow ?? 0) : 0;
    return {
      versions,
      audit: audit.map(auditView),
      nextCursor: moreVersions || moreAudit ? `${nextVersions}.${nextAudit}` : null,
    };
  },
});

const badCursor = () => validationError("This cursor belongs to another kind of page.", [{ path: "cursor", message: "Pass nextCursor unchanged" }]);

const iso = (ms: number) => new Date(ms).toISOString();

const actorOf = (row: { actorUserId: string; actorClientId: string | null; createdAt: number }) => ({
  actorUserId: row.actorUserId,
  actorClientId: row.actorClientId,
  createdAt: iso(row.createdAt),
});

const snapshots = (value: unknown): Snapshot[] => (Array.isArray(value) ? (value as Snapshot[]) : []);

/** A version in the list: what changed at a glance, `truncated` when anything was left out. */
function listedVersion(version: Version) {
  const before = snapshots(version.before);
  const after = snapshots(version.after);
  const clipSide = (side: Snapshot[]) =>
    side.slice(0, LISTED.snapshots).map((snapshot) => ({ ...snapshot, instructions: clipText(snapshot.instructions, LISTED.instructions) }));
  const truncated =
    version.rationale.length > LISTED.rationale ||
    [before, after].some((side) => side.length > LISTED.snapshots || side.some((snapshot) => snapshot.instructions.length > LISTED.instructions));
  return {
    version: version.version,
    kind: version.kind,
    rationale: clipText(version.rationale, LISTED.rationale),
    before: clipSide(before),
    after: clipSide(after),
    truncated,
    ...actorOf(version),
  };
}

function auditView(entry: HistoryPage["audit"][number]) {
  return { action: entry.action, stepId: entry.stepId, detail: clipJson(entry.detail, LISTED.detail).value, ...actorOf(entry) };
}

/**
 * One version whole: its rationale and its step snapshots with full instructions, `before` then `after`, as many
 * as fit in a page from snapshot `from` on; nextCursor ("s<n>") continues.
 */
function wholeVersion(version: Version, from: number) {
  const before = snapshots(version.before);
  const after = snapshots(version.after);
  const all = [...before.map((snapshot) => ({ side: "before" as const, snapshot })), ...after.map((snapshot) => ({ side: "after" as const, snapshot }))];
  if (from > all.length) throw badCursor();
  const page = fillBudget(all.slice(from), PAGE_CHARS.version - version.rationale.length, (entry) => JSON.stringify(entry.snapshot).length);
  const next = from + page.length;
  const side = (name: "before" | "after") => page.filter((entry) => entry.side === name).map((entry) => entry.snapshot);
  return {
    versions: [
      { version: version.version, kind: version.kind, rationale: version.rationale, before: side("before"), after: side("after"), truncated: next < all.length || from > 0, ...actorOf(version) },
    ],
    audit: [],
    nextCursor: next < all.length ? `s${next}` : null,
  };
}
