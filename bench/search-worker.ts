/**
 * A bench-only Worker (never deployed) beside Cairn in the same workerd, bound to
 * the same D1 database, used by `npm run bench:search`:
 *
 * - `POST /ingest` stores bench artifacts through Cairn's own write path
 *   (`saveArtifact`, the code behind store_research, and `d1ArtifactRepository`),
 *   but sends the statements the repository prepares to D1 many artifacts per
 *   batch instead of one batch per artifact: same SQL, same rows, same FTS5
 *   triggers, fewer round trips.
 * - `POST /search` runs the real `search_sources` operation (`invoke`: scope
 *   check, zod input, handler, every D1 query it makes) with the services Cairn
 *   wires for a request, and times each call inside the Worker. workerd's clock
 *   only advances across I/O, so the time is that of the awaited D1 queries plus
 *   the CPU between them; the CPU after the last query (mapping a handful of
 *   rows) is not counted.
 * - Each search's D1 rows read (`meta.rows_read`, what D1 bills) are added up per query.
 * - The same endpoint times a one-row indexed D1 read (`floor`): the cost of any
 *   D1 round trip on this harness, the baseline the search is compared with.
 */
import type { Principal } from "../src/domain/principal";
import type { Env } from "../src/env";
import { invoke } from "../src/operations/invoke";
import type { OperationContext } from "../src/operations/operation";
import { saveArtifact } from "../src/operations/save-artifact";
import { searchSources } from "../src/operations/search-sources";
import { requestRuntime } from "../src/platform/runtime";
import { d1ArtifactRepository } from "../src/storage/artifact-repository";
import { benchArtifact } from "./corpus";

interface IngestRequest {
  principal: Principal;
  from: number;
  count: number;
  /** Artifacts per D1 batch. */
  batch: number;
  /** createdAt of artifact 0; artifact n is n seconds later. */
  epochMs: number;
  textChars: number;
  /** Plan ids; artifact n belongs to planIds[n % planEvery] when n % planEvery < planIds.length. */
  planIds: string[];
  planEvery: number;
  /** A second org storing every `neighbourEvery`-th artifact among the first org's (the skewed two-org shape). */
  neighbour?: Principal;
  neighbourEvery?: number;
}

interface SearchCase {
  id: string;
  input: Record<string, unknown>;
}

interface SearchRequest {
  principal: Principal;
  cases: SearchCase[];
  reps: number;
}

/** A D1Database that hands the statements of every `batch` to a buffer instead of running them. */
function capturingDatabase(db: D1Database, buffer: D1PreparedStatement[]): D1Database {
  return {
    prepare: (sql: string) => db.prepare(sql),
    batch: async (statements: D1PreparedStatement[]) => {
      buffer.push(...statements);
      return statements.map(() => ({ success: true, meta: { changes: 1 }, results: [] }));
    },
  } as unknown as D1Database;
}

function contextFor(env: Env, executionCtx: ExecutionContext, principal: Principal): Promise<OperationContext> {
  return requestRuntime(env, executionCtx as never, principal).contextFor(crypto.randomUUID());
}

async function ingest(env: Env, executionCtx: ExecutionContext, request: IngestRequest) {
  const base = await contextFor(env, executionCtx, request.principal);
  const neighbourBase = request.neighbour ? await contextFor(env, executionCtx, request.neighbour) : null;
  const every = request.neighbourEvery ?? 0;
  const buffer: D1PreparedStatement[] = [];
  const artifacts = d1ArtifactRepository(capturingDatabase(env.DB, buffer));
  let batches = 0;
  let bytes = 0;
  const flush = async () => {
    if (buffer.length === 0) return;
    await env.DB.batch(buffer.splice(0, buffer.length));
    batches++;
  };
  const started = Date.now();
  for (let n = request.from; n < request.from + request.count; n++) {
    const draft = benchArtifact(n, request.textChars);
    const ofNeighbour = neighbourBase !== null && every > 0 && n % every === every - 1;
    const slot = n % request.planEvery;
    const planId = !ofNeighbour && slot < request.planIds.length ? request.planIds[slot] : undefined;
    const at = request.epochMs + n * 1000;
    const from = ofNeighbour ? neighbourBase : base;
    const ctx: OperationContext = { ...from, services: { ...from.services, artifacts }, now: () => at };
    await saveArtifact(ctx, { ...draft, ...(planId ? { planId } : {}), sourceUrl: draft.sourceUrl ?? undefined });
    bytes += draft.contentText.length;
    if ((n - request.from + 1) % request.batch === 0) await flush();
  }
  await flush();
  return { count: request.count, batches, textChars: bytes, ms: Date.now() - started };
}

/** A D1Database that adds up the rows its batches read (D1's `meta.rows_read`, what D1 bills). */
function rowCountingDatabase(db: D1Database, counter: { rows: number }): D1Database {
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key !== "batch") return typeof value === "function" ? value.bind(target) : value;
      return async (statements: D1PreparedStatement[]) => {
        const results = await target.batch(statements);
        for (const result of results) counter.rows += result.meta.rows_read ?? 0;
        return results;
      };
    },
  });
}

async function search(env: Env, executionCtx: ExecutionContext, request: SearchRequest) {
  const counter = { rows: 0 };
  const ctx = await contextFor({ ...env, DB: rowCountingDatabase(env.DB, counter) }, executionCtx, request.principal);
  const rowsRead: Record<string, number> = {};
  const noRecord = () => {};
  const timings: Record<string, number[]> = {};
  const hits: Record<string, number> = {};
  const rankings: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const floorId = await env.DB.prepare("SELECT id FROM artifacts WHERE org_id = ? ORDER BY seq DESC LIMIT 1").bind(request.principal.orgId).first<string>("id");
  timings.floor = [];
  for (let rep = 0; rep < request.reps; rep++) {
    for (const testCase of request.cases) {
      const started = performance.now();
      const rowsBefore = counter.rows;
      const result = await invoke(searchSources, testCase.input, ctx, "rest", noRecord);
      rowsRead[testCase.id] = counter.rows - rowsBefore;
      const elapsed = performance.now() - started;
      timings[testCase.id] = [...(timings[testCase.id] ?? []), elapsed];
      if (result.ok) {
        const value = result.value as { results: unknown[]; ranking: string };
        hits[testCase.id] = value.results.length;
        rankings[testCase.id] = value.ranking;
      }
      else errors[testCase.id] = `${result.error.code}: ${result.error.message}`;
    }
    // The floor: one indexed one-row read, as many times as there are cases, interleaved with them.
    for (let i = 0; i < request.cases.length; i++) {
      const started = performance.now();
      await env.DB.prepare("SELECT id, title FROM artifacts WHERE org_id = ? AND id = ?").bind(request.principal.orgId, floorId).first();
      timings.floor.push(performance.now() - started);
    }
  }
  return { timings, hits, rankings, rowsRead, errors };
}

export default {
  async fetch(request: Request, env: Env, executionCtx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    try {
      if (request.method === "POST" && url.pathname === "/ingest") {
        return Response.json(await ingest(env, executionCtx, await request.json<IngestRequest>()));
      }
      if (request.method === "POST" && url.pathname === "/search") {
        return Response.json(await search(env, executionCtx, await request.json<SearchRequest>()));
      }
      return new Response("not found", { status: 404 });
    } catch (error) {
      return Response.json({ error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error) }, { status: 500 });
    }
  },
};
