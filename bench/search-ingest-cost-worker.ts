/**
 * A bench-only Worker (never deployed) for `bench/search-ingest-cost.mjs`: `POST /insert` writes bench
 * artifacts' rows (the artifacts row alone, which fires every index trigger; no version row, no Cairn code)
 * into its D1 database, `batch` rows a D1 batch (one transaction), as the Worker ingest batches them.
 * `orgs` take turns: artifact n belongs to orgs[n % orgs.length].
 */
import { benchArtifact } from "./corpus";

interface InsertRequest {
  from: number;
  count: number;
  batch: number;
  orgs: string[];
}

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const body = (await request.json()) as InsertRequest;
    const insert = env.DB.prepare(
      `INSERT INTO artifacts (id, org_id, artifact_type, title, content, content_text, confidence, plan_id, step_id, tags, tag_index, source_url, version, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, '{}', ?, NULL, NULL, NULL, '[]', ' ', NULL, 1, 'usr_bench', ?, ?)`,
    );
    const started = Date.now();
    for (let start = body.from; start < body.from + body.count; start += body.batch) {
      const statements: D1PreparedStatement[] = [];
      for (let n = start; n < Math.min(body.from + body.count, start + body.batch); n++) {
        const draft = benchArtifact(n, 2000);
        statements.push(insert.bind(`art_bench${String(n).padStart(9, "0")}`, body.orgs[n % body.orgs.length], draft.artifactType, draft.title, draft.contentText, n, n));
      }
      await env.DB.batch(statements);
    }
    return Response.json({ ms: Date.now() - started });
  },
};
