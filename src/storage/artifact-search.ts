import type { D1Queries } from "./database";
import type { Query } from "./query";
import type { ArtifactFilters } from "../domain/ports";
import type { SearchHit } from "../domain/research/artifacts";
import { indexLists, prefixesAsWordsOf, withinOrg } from "../domain/research/search-query";
import { readSnippet } from "../domain/research/search-text";
import { filterSql, type Row, SUMMARY_COLUMNS } from "./artifact-rows";

/**
 * How many of the newest matching artifacts are ranked. Below it (rare and topic words, phrases:
 * almost every query) every match is ranked; a word in nearly every record has more matches than
 * can be ranked in time, so its newest ones are, and the answer says so (`ranking: "recent-window"`).
 */
export const RANKING_WINDOW = 500;
/** With a plan filter the candidates are the plan's own newest artifacts, found by index: this many. */
export const PLAN_WINDOW = 2_000;
/** How many of its newest artifacts each org has in the recent index (migration 0036 says it in its triggers). */
export const RECENT_PER_ORG = 25_000;

/**
 * How much of the full index a search may read: the org's own records holding its words, summed over its
 * words (a phrase: each of its words), estimated from their share of the org's window in the recent index.
 * FTS5 walks each word's whole list in the full index, to match and again to weigh the word, so that sum
 * is the search's cost there in a database of one org: about 1 ms per 1,000 records on a quiet machine.
 * Counted on the org's own records, never its neighbours', so that whether a search reads the full index,
 * and so what it finds, depends on the org's data alone (a neighbour's records of the same words still
 * lengthen that read: its time, not its answer). A search over it is answered from the recent index alone,
 * ranked among the newest matches, and says so (`ranking: "recent-window"`): a rare word is found however
 * old its record; a phrase of common words among the org's newest 25,000 artifacts.
 */
export const FULL_INDEX_BUDGET = 25_000;
/** A query reading more lists than this is over the budget without measuring (each list costs a count). */
const MEASURED_LISTS = 8;

/**
 * Which full-text index a search reads. "recent" holds each org's own newest 25,000 artifacts
 * (migration 0036, contentless: snippets come from the full index): its cost does not grow with the
 * org's memory, and an org's window does not move with what other orgs store. "all" holds every artifact.
 */
export type ArtifactIndex = "recent" | "all";

export interface ArtifactSearchResult {
  hits: SearchHit[];
  /** More matches than the window: the newest ones were ranked. */
  beyondWindow: boolean;
  /**
   * Whether this is the answer. From the recent index it is when the window was full there (the newest
   * matches are all recent), when the org has nothing older, or, filtered to a plan, when the plan's
   * candidates are all recent: then it is the full index's answer. It is also the answer, the window
   * said to be full, when reading the full index would cost more than FULL_INDEX_BUDGET (filtered to a
   * plan: when some of its candidates are recent; an older plan's are ranked in the full index). Otherwise search "all".
   */
  answered: boolean;
  /** A query with a prefix: the hits whose snippets are still to be read (prefixSnippets), by their place in `hits`. */
  snippetsToRead: SnippetToRead[];
}

export interface SnippetToRead {
  hit: number;
  seq: number;
  /** The query with each prefix replaced by the hit's own words that begin with it. */
  match: string;
}

/** A hit's snippet, as every artifact search cuts it: from the full index's text column, 24 tokens, its words marked. */
const SNIPPET = "snippet(artifacts_fts, 1, '«', '»', '…', 24)";

/** How much of a hit's text is read for the words its query's prefixes begin (a snippet is cut from the first matches anyway). */
const PREFIX_TEXT_CHARS = 20_000;

/**
 * The snippets of a prefix query's hits, read in one batch after the search: each a rowid lookup with the hit's own
 * words in place of the prefixes (artifactSearch). A hit whose lookup finds nothing keeps no snippet.
 */
export async function prefixSnippets(db: D1Queries, found: ArtifactSearchResult): Promise<ArtifactSearchResult> {
  if (found.snippetsToRead.length === 0) return found;
  const results = await db.batch(
    found.snippetsToRead.map(({ seq, match }) =>
      // CAST: a number from JavaScript is bound as a REAL, with which FTS5 does not look the rowid up (it returned every match).
      db.prepare(`SELECT ${SNIPPET} AS snippet FROM artifacts_fts WHERE artifacts_fts MATCH ? AND artifacts_fts.rowid = CAST(? AS INTEGER)`).bind(match, seq),
    ),
  );
  const hits = [...found.hits];
  found.snippetsToRead.forEach(({ hit }, i) => {
    const snippet = (results[i]?.results?.[0] as { snippet?: unknown } | undefined)?.snippet;
    const current = hits[hit];
    if (current) hits[hit] = { ...current, snippet: typeof snippet === "string" ? readSnippet(snippet) : "" };
  });
  return { ...found, hits, snippetsToRead: [] };
}

/**
 * The candidates ranking looks at (`win`, newest first, one past the window so a full window shows),
 * its parameters and its size. Filtered to a plan: the plan's newest artifacts, by index (a plan's share
 * of a common word's matches can be small, and walking the matches to find it is slow). Otherwise: the
 * newest matches that pass the filters.
 */
function candidates(fts: string, orgId: string, match: Fragment, filters: ArtifactFilters): { sql: string; params: unknown[]; window: number; byPlan: boolean } {
  if (filters.planId) {
    const where = filterSql(orgId, filters, false);
    return { sql: `SELECT a.seq AS r FROM artifacts a WHERE ${where.sql} ORDER BY a.seq DESC LIMIT ?`, params: [...where.params, PLAN_WINDOW + 1], window: PLAN_WINDOW, byPlan: true };
  }
  const where = filterSql(orgId, filters, true);
  return {
    sql: `SELECT ${fts}.rowid AS r FROM ${fts} JOIN artifacts a INDEXED BY artifacts_org_search_filters ON a.org_id = ? AND a.seq = ${fts}.rowid
           WHERE ${fts} MATCH ${match.sql} AND ${where.sql} ORDER BY ${fts}.rowid DESC LIMIT ?`,
    params: [orgId, ...match.params, ...where.params, RANKING_WINDOW + 1],
    window: RANKING_WINDOW,
    byPlan: false,
  };
}

type Fragment = { sql: string; params: unknown[] };

/**
 * What a search matches in an index. In the recent index, an org whose window is not full (a small org,
 * whose records may be few among other orgs' windows) matches its own key beside the query's words, so
 * FTS5 reads the words' lists only where they meet the org's (a small org's common word read 150,000 rows
 * walking a large neighbour's window); an org with a full window matches the words alone, its own records
 * being most of what it walks, and bm25 not counting its key's 25,000 records on every search. The key's
 * column weighs nothing: the hits and their scores are the same either way.
 */
function matchIn(index: ArtifactIndex, ftsQuery: string, orgId: string): Fragment {
  if (index === "all") return { sql: "?", params: [ftsQuery] };
  return {
    sql: `(CASE WHEN COALESCE((SELECT stored FROM artifacts_recent_orgs WHERE org_id = ?), 0) < ${RECENT_PER_ORG} THEN ? ELSE ? END)`,
    params: [orgId, withinOrg(ftsQuery, orgId), ftsQuery],
  };
}

/**
 * Full-text search of the org's artifacts in one index, best first, and whether the window was full
 * (sent alone or in a batch with the other searches). One row always comes back: with no hit, a row of
 * the window's figures alone, so the caller learns whether the recent index answered.
 */
export function artifactSearch(db: D1Queries, orgId: string, ftsQuery: string, filters: ArtifactFilters, limit: number, index: ArtifactIndex): Query<ArtifactSearchResult> {
  const fts = index === "recent" ? "artifacts_recent_fts" : "artifacts_fts";
  const match = matchIn(index, ftsQuery, orgId);
  const weights = index === "recent" ? "4.0, 1.0, 2.0, 0.0" : "4.0, 1.0, 2.0";
  const c = candidates(fts, orgId, match, filters);
  const where = filterSql(orgId, filters, true);
  // Filters read their columns from artifacts_org_search_filters, not the rows (a few KB each: 33 → 13 ms
  // for a tag filter over the recent index's matches of a common word, with D1's small page cache), by org
  // then seq: an org's entries lie together however its artifacts are spread among other orgs' (0044).
  // bm25 weights: title 4×, text 1×, tags 2×. The plan index and the skill execution supply
  // what a prior-research check shows beside each hit: the question and the original request.
  // Only candidates are ranked. Matches are bounded by rowid from below, at the
  // window's oldest candidate: FTS5 then reads only the doclist pages of the window instead of every
  // match of the word in the index. bm25 itself still counts each term's records over the whole index
  // it reads to weigh it: the reason the recent index is read first (see MAX_TERMS too).
  // Filtered to a plan, the candidates are also checked as a list (the plan's artifacts are spread among
  // everyone else's); the unary + keeps that list from being handed to FTS5 as rowid lookups (each
  // would run the whole match again: 500 ms at 30k rows).
  const bound = `${fts}.rowid >= (SELECT lowest FROM bound)${c.byPlan ? ` AND +${fts}.rowid IN (SELECT r FROM win ORDER BY r DESC LIMIT ${c.window})` : ""}`;
  const oldest = `(SELECT r FROM win ORDER BY r DESC LIMIT 1 OFFSET ${c.window - 1})`;
  // Recent index only: where the org's own window begins (its oldest member), how many members it has and how many
  // artifacts the org has stored (its row in artifacts_recent_orgs, migration 0040), and whether it has an artifact
  // older than its window (by index). Nothing here reads another org's members: what a search finds never depends
  // on what neighbours store.
  const reach =
    index === "recent"
      ? {
          sql: `floor, members, stored,
                EXISTS (SELECT 1 FROM artifacts INDEXED BY artifacts_org_seq WHERE org_id = ? AND seq < COALESCE(floor, 9223372036854775807)) AS older
                FROM bound LEFT JOIN (SELECT CASE WHEN members > 0 THEN floor END AS floor, members, stored FROM artifacts_recent_orgs WHERE org_id = ?) ON 1`,
          params: [orgId, orgId],
        }
      : { sql: "NULL AS floor, NULL AS members, NULL AS stored, 0 AS older FROM bound", params: [] };
  // Recent index: should the full index be needed, what it would cost. Each of the query's lists is
  // counted among the org's own members of the recent index (only then, and only up to what shows it is
  // over the budget: the budget scaled from all the org has stored to its window's share of it).
  const lists = index === "recent" ? indexLists(ftsQuery) : [];
  const measured = lists.length <= MEASURED_LISTS ? lists : [];
  // When: the org has older artifacts and the window is not full here; filtered to a plan, when its
  // candidates reach past the recent index and some are in it (with none in it, the full index ranks them).
  const needed = c.byPlan ? "reach.lowest < reach.floor AND reach.highest >= reach.floor" : `reach.older = 1 AND reach.n <= ${c.window}`;
  // Each list is counted among the org's own records (its key matched beside it).
  const counts = measured.map(
    (_, i) =>
      `CASE WHEN ${needed} THEN (SELECT COUNT(*) FROM (SELECT 1 FROM artifacts_recent_fts WHERE artifacts_recent_fts MATCH ? LIMIT (SELECT k FROM cap))) END AS list${i}`,
  );
  // Ranked first, then given snippets: a snippet tokenizes its record's whole text, so only the hits
  // returned get one (500 snippets were most of a search's time), from the full index (the recent one holds
  // no text), each by a rowid lookup. A query with a prefix: FTS5 would first gather every record of every
  // word the prefix begins (at a million artifacts 30–40 ms for a common prefix, for each hit), so its hits
  // come back with their text and their snippets are read next, each prefix replaced by the hit's own words
  // that begin with it (prefixSnippets).
  const prefixed = /"\*/.test(ftsQuery);
  const snippetOfHit = prefixed
    ? `NULL AS snippet, a.seq AS seq, COALESCE(a.search_title, a.title) || ' ' || substr(COALESCE(a.search_text, a.content_text), 1, ${PREFIX_TEXT_CHARS}) || ' ' || COALESCE(a.tag_index, '') AS words_text`
    : `(SELECT ${SNIPPET} FROM artifacts_fts WHERE artifacts_fts MATCH ? AND artifacts_fts.rowid = top.r) AS snippet`
  const statement = db
    .prepare(
      `WITH win AS MATERIALIZED (${c.sql}),
            bound AS (SELECT COUNT(*) AS n, COALESCE(${oldest}, (SELECT MIN(r) FROM win)) AS lowest, (SELECT MAX(r) FROM win) AS highest FROM win),
            reach AS (SELECT n, lowest, highest, ${reach.sql}),
            cap AS (SELECT CAST(? * COALESCE(reach.members, 0) / MAX(reach.stored, 1) AS INTEGER) + 1 AS k FROM reach),
            top AS MATERIALIZED (
              SELECT ${fts}.rowid AS r, bm25(${fts}, ${weights}) AS rank
                FROM ${fts} JOIN artifacts a INDEXED BY artifacts_org_search_filters ON a.org_id = ? AND a.seq = ${fts}.rowid
               WHERE ${fts} MATCH ${match.sql} AND ${bound} AND ${where.sql}
               ORDER BY rank LIMIT ?)
       SELECT reach.n AS candidates, reach.lowest AS lowest, reach.highest AS highest, reach.floor AS floor, reach.members AS members, reach.stored AS stored, reach.older AS older,
              ${[...counts, "hit.*"].join(", ")}
         FROM reach LEFT JOIN (
           SELECT ${SUMMARY_COLUMNS}, top.rank AS rank,
                  ${snippetOfHit},
                  p.research_question AS research_question,
                  CASE WHEN json_valid(e.metadata) THEN json_extract(e.metadata, '$.originalQuery') END AS original_query
             FROM top
             JOIN artifacts a ON a.seq = top.r
             LEFT JOIN plans p ON p.plan_id = a.plan_id AND p.org_id = a.org_id
             LEFT JOIN skill_executions e ON e.id = p.execution_id AND e.org_id = a.org_id) hit ON 1
        ORDER BY hit.rank`,
    )
    .bind(
      ...c.params,
      ...reach.params,
      FULL_INDEX_BUDGET,
      orgId,
      ...match.params,
      ...where.params,
      limit,
      ...measured.map((list) => withinOrg(list, orgId)),
      ...(prefixed ? [] : [ftsQuery]),
    );
  type Ranked = Row & { snippet: string | null; rank: number; research_question: string | null; original_query: unknown; seq?: number; words_text?: string };
  type Reach = { candidates: number; lowest: number | null; highest: number | null; floor: number | null; members: number | null; stored: number | null; older: number } & Record<`list${number}`, number | null>;
  const read = (rows: unknown[]): ArtifactSearchResult => {
    const figures = rows[0] as Reach | undefined;
    const candidatesFound = figures?.candidates ?? 0;
    const full = candidatesFound > c.window;
    // With no member in the recent index (its window emptied by deletes) the org's older artifacts, if any,
    // are ranked in the full index.
    const alone =
      index === "all" || !figures
        ? true
        : figures.floor === null
          ? figures.older === 0
          : c.byPlan
            ? figures.lowest === null || figures.lowest >= figures.floor
            : full || figures.older === 0;
    // Records the full index holds of the query's lists for this org, from their share of its window.
    const overBudget = (() => {
      if (alone || !figures || figures.floor === null || !figures.members || !figures.stored) return false;
      if (c.byPlan && (figures.highest === null || figures.highest < figures.floor)) return false;
      if (lists.length > MEASURED_LISTS) return true;
      const inRecent = measured.reduce((sum, _, i) => sum + (figures[`list${i}`] ?? 0), 0);
      return (inRecent * figures.stored) / figures.members > FULL_INDEX_BUDGET;
    })();
    const beyondWindow = full || overBudget;
    const answered = alone || overBudget;
    const hitRows = (rows as (Ranked | Reach)[]).filter((row): row is Ranked => "id" in row && row.id !== null);
    return {
      beyondWindow,
      answered,
      snippetsToRead: hitRows.flatMap((row, hit) =>
        row.seq === undefined || row.seq === null ? [] : [{ hit, seq: row.seq, match: prefixesAsWordsOf(ftsQuery, row.words_text ?? "") }],
      ),
      hits: hitRows.map(
        (row): SearchHit => ({
          kind: "artifact",
          id: row.id,
          title: row.title,
          type: row.artifact_type,
          // The index's text has separators between the pieces of Japanese, Chinese, Korean and Thai runs: read without them.
          snippet: typeof row.snippet === "string" ? readSnippet(row.snippet) : "",
          relevance: -row.rank,
          planId: row.plan_id,
          sourceUrl: row.source_url,
          createdAt: row.created_at,
          researchQuestion: row.research_question || null,
          originalQuery: typeof row.original_query === "string" ? row.original_query : null,
        }),
      ),
    };
  };
  return { statement, read };
}
