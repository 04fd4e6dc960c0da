import type { D1Queries } from "./database";
import type { ResearchSearch } from "../domain/ports";
import { artifactSearch, prefixSnippets } from "./artifact-search";
import { claimSearch } from "./ledger-repository";
import { outputSearch } from "./output-repository";
import type { Query } from "./query";

/**
 * The three full-text searches of research memory sent as one D1 batch: one round
 * trip where three parallel ones were; the artifacts' search also says whether they were
 * ranked among their newest matches only. A limit of 0 leaves that kind out.
 * Artifacts are searched in the index of each org's own newest ones first; only when that
 * cannot answer alone (few matches there and the org has older artifacts, or a plan's
 * candidates reach back beyond it) does a second round trip search the full index.
 */
export function d1ResearchSearch(db: D1Queries): ResearchSearch {
  return {
    async search(orgId, ftsQuery, filters, limits) {
      const scope = { ...(filters.planId ? { planId: filters.planId } : {}), ...(filters.since !== undefined ? { since: filters.since } : {}) };
      const artifacts = artifactSearch(db, orgId, ftsQuery, filters, limits.artifacts, "recent");
      const outputs = limits.outputs > 0 ? outputSearch(db, orgId, ftsQuery, scope, limits.outputs) : null;
      const claims = limits.claims > 0 ? claimSearch(db, orgId, ftsQuery, scope, limits.claims) : null;
      const sent: Query<unknown>[] = [artifacts, ...(outputs ? [outputs] : []), ...(claims ? [claims] : [])];
      const results = await db.batch(sent.map((query) => query.statement));
      const rowsOf = (query: Query<unknown>) => results[sent.indexOf(query)]?.results ?? [];
      let found = artifacts.read(rowsOf(artifacts));
      if (!found.answered) {
        const everything = artifactSearch(db, orgId, ftsQuery, filters, limits.artifacts, "all");
        const [result] = await db.batch([everything.statement]);
        found = everything.read(result?.results ?? []);
      }
      found = await prefixSnippets(db, found);
      return {
        artifacts: found.hits,
        outputs: outputs ? outputs.read(rowsOf(outputs)) : [],
        claims: claims ? claims.read(rowsOf(claims)) : [],
        artifactsBeyondWindow: found.beyondWindow,
      };
    },
  };
}
