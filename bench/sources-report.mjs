/**
 * Scores the quote matcher's answers on the judged set (bench/sources/judged-set.json) and prints
 * them: precision and recall per status, the confusion matrix, the cases per kind, the goal lines.
 * Pure, so test/unit/bench-goals.test.ts can judge the goal lines on made-up answers.
 */
import { table } from "./report.mjs";

export const STATUSES = ["verified", "partial", "not_found", "unchecked"];

export const SOURCE_GOALS = {
  /** Share of genuine quotes (typographic variants included) the matcher verifies. */
  minGenuineVerified: 0.97,
  /** Altered or unsupported quotes the matcher may verify. */
  maxFalselyVerified: 0,
};

const pct = (part, whole) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)} %`);
const verdict = (pass) => (pass ? "PASS" : "MISS");

/** Counts from `results`: one `{ id, kind, class, expected, got }` per case. */
export function scoreResults(results) {
  const confusion = Object.fromEntries(STATUSES.map((e) => [e, Object.fromEntries(STATUSES.map((g) => [g, 0]))]));
  for (const r of results) confusion[r.expected][r.got]++;
  const perStatus = STATUSES.map((status) => {
    const predicted = STATUSES.reduce((sum, e) => sum + confusion[e][status], 0);
    const expected = STATUSES.reduce((sum, g) => sum + confusion[status][g], 0);
    const right = confusion[status][status];
    return { status, predicted, expected, right, precision: predicted ? right / predicted : Number.NaN, recall: expected ? right / expected : Number.NaN };
  });
  const genuine = results.filter((r) => r.class === "genuine");
  const falselyVerified = results.filter((r) => (r.class === "altered" || r.class === "unsupported") && r.got === "verified");
  const verified = results.filter((r) => r.got === "verified");
  return {
    cases: results.length,
    confusion,
    perStatus,
    genuine: genuine.length,
    genuineVerified: genuine.filter((r) => r.got === "verified").length,
    altered: results.filter((r) => r.class === "altered").length,
    unsupported: results.filter((r) => r.class === "unsupported").length,
    verified: verified.length,
    falselyVerified,
  };
}

/** The two goal lines and whether both pass. */
export function sourceGoalLines(score) {
  const verifiedPrecision = score.verified === 0 ? 1 : (score.verified - score.falselyVerified.length) / score.verified;
  const noFalse = score.falselyVerified.length <= SOURCE_GOALS.maxFalselyVerified;
  const share = score.genuine === 0 ? 0 : score.genuineVerified / score.genuine;
  const enough = score.genuine > 0 && share >= SOURCE_GOALS.minGenuineVerified;
  const lines = [
    `Goal: no fabricated or altered quote is ever verified — ${verdict(noFalse)} (${score.falselyVerified.length} of ${score.altered + score.unsupported} altered or unsupported verified; ` +
      `precision of verified ${pct(score.verified - score.falselyVerified.length, score.verified)})` +
      (noFalse ? "" : `: ${score.falselyVerified.map((r) => r.id).join(", ")}`),
    `Goal: ≥ ${SOURCE_GOALS.minGenuineVerified * 100} % of genuine quotes verified — ${verdict(enough)} (${score.genuineVerified} of ${score.genuine}, ${pct(score.genuineVerified, score.genuine)})`,
  ];
  return { lines, pass: noFalse && enough, verifiedPrecision, genuineShare: share };
}

export function renderScore(score, results) {
  const out = [];
  out.push(
    table(
      ["status", "expected", "answered", "right", "precision", "recall"],
      score.perStatus.map((s) => [s.status, s.expected, s.predicted, s.right, pct(s.right, s.predicted), pct(s.right, s.expected)]),
    ),
    "",
    "Confusion matrix (rows: expected, columns: answered):",
    "",
    table(["expected \\ answered", ...STATUSES], STATUSES.map((e) => [e, ...STATUSES.map((g) => score.confusion[e][g])])),
    "",
  );
  const kinds = Object.entries(Object.groupBy(results, (r) => r.kind)).sort(([a], [b]) => a.localeCompare(b));
  out.push(
    table(
      ["kind", "class", "expected", "cases", "as expected", "answered"],
      kinds.map(([kind, rs]) => {
        const answered = Object.entries(Object.groupBy(rs, (r) => r.got)).map(([g, list]) => `${g} ${list.length}`).join(", ");
        return [kind, rs[0].class, [...new Set(rs.map((r) => r.expected))].join("/"), rs.length, rs.filter((r) => r.got === r.expected).length, answered];
      }),
    ),
    "",
  );
  return out.join("\n");
}

export const ARTICLE_GOALS = {
  /** Share of genuine quotes on the real pages (quoting's allowed changes included) the check verifies. */
  minGenuineVerified: 0.99,
  /** Altered, made-up, other-page or hidden quotes the check may verify. */
  maxFalselyVerified: 0,
};

/** The goal lines of one part of the article set (bench/sources/article-set.json), and whether both pass. */
export function articleGoalLines(score, part) {
  const noFalse = score.falselyVerified.length <= ARTICLE_GOALS.maxFalselyVerified;
  const share = score.genuine === 0 ? 0 : score.genuineVerified / score.genuine;
  const enough = score.genuine > 0 && share >= ARTICLE_GOALS.minGenuineVerified;
  const verified = score.perStatus.find((s) => s.status === "verified");
  const shown = score.falselyVerified.slice(0, 12).map((r) => r.id);
  const lines = [
    `Goal (${part}): no altered, made-up or hidden quote verified — ${verdict(noFalse)} (${score.falselyVerified.length} of ${score.altered + score.unsupported})` +
      (noFalse ? "" : `: ${shown.join(", ")}${score.falselyVerified.length > shown.length ? ", …" : ""}`),
    `Goal (${part}): ≥ ${ARTICLE_GOALS.minGenuineVerified * 100} % of genuine quotes (normalized included) verified — ${verdict(enough)} (${score.genuineVerified} of ${score.genuine}, ${pct(score.genuineVerified, score.genuine)})`,
    `Verified (${part}): precision ${pct(verified.right, verified.predicted)} (${verified.right} of ${verified.predicted} answers verified were labelled verified), recall ${pct(verified.right, verified.expected)} (${verified.right} of ${verified.expected})`,
  ];
  return { lines, pass: noFalse && enough };
}

/** Per kind: how many cases, how many answered as labelled, and the count of each status answered. */
export function renderKindCounts(results) {
  const kinds = Object.entries(Object.groupBy(results, (r) => r.kind)).sort(([a], [b]) => a.localeCompare(b));
  return table(
    ["kind", "class", "expected", "cases", "as expected", ...STATUSES],
    kinds.map(([kind, rs]) => [kind, rs[0].class, [...new Set(rs.map((r) => r.expected))].join("/"), rs.length, rs.filter((r) => r.got === r.expected).length, ...STATUSES.map((s) => rs.filter((r) => r.got === s).length)]),
  );
}
