import { describe, expect, it } from "vitest";
import type { AnyOperation } from "../../src/operations/operation";
import { OPERATIONS } from "../../src/operations/registry";
import { Visitor } from "../support/dashboard";
import { hostileInputs, type OrgHandles } from "../support/hostile-inputs";
import { createPlan, ok } from "../support/plans";
import { callTool, fetchWorker, mcpRequest, readJsonRpc, rest, seedApiKey, seedTenant, seedUser } from "../support/worker";

/**
 * The hostile-tenant invariant: whatever one member of an org writes, through
 * any write operation, every read of the org keeps answering for every other
 * member, and another org sees none of it.
 */
const SEED = 20261123;
/** Random mixes per operation, beside the systematic cases (every property × every hostile value of its kind). */
const RANDOM_CASES_PER_OPERATION = 10;

const WRITES = OPERATIONS.filter((operation) => !operation.annotations.readOnlyHint);
const READS = OPERATIONS.filter((operation) => operation.annotations.readOnlyHint);

/** One org's records of every kind, made the ordinary way. */
async function orgRecords(apiKey: string, label: string): Promise<OrgHandles> {
  const sessionId = `sess-${label}-${crypto.randomUUID()}`;
  const execution = await ok(apiKey, "log_skill_execution", { skillName: "research", sessionId, metadata: { topic: `${label} tidal energy`, delegatedTo: "scan" } });
  const plan = await createPlan(apiKey, { sessionId, name: `[Scan] ${label} tidal energy` });
  const artifact = await ok(apiKey, "store_research", {
    artifactType: "finding",
    title: `${label} tidal lagoons`,
    content: { note: label },
    contentText: `${label} tidal lagoons hold water behind a wall.`,
    planId: plan.planId,
  });
  const output = await ok(apiKey, "store_research_output", { title: `${label} report`, mediaType: "markdown", content: `# ${label} tidal report`, planId: plan.planId });
  await ok(apiKey, "record_evidence", {
    planId: plan.planId,
    subtopics: ["lagoons"],
    evidence: [{ url: `https://example.com/${label}/lagoons`, title: `${label} lagoons`, facts: `${label} lagoons hold water.` }],
  });
  const session = await ok(apiKey, "sequential_search", { stepNumber: 1, searchStep: `${label} tidal search`, nextStepNeeded: true, researchGoal: `${label} tidal` });
  return {
    planId: plan.planId,
    stepId: plan.steps[0]?.stepId ?? "",
    executionId: String(execution.executionId),
    artifactId: String(artifact.artifactId),
    outputId: String(output.outputId),
    sessionId: String(session.sessionId),
  };
}

/** What some handlers need beyond their schema's required fields to take the ordinary path. */
const ORDINARY: Record<string, Record<string, unknown>> = {
  log_skill_execution: { skillName: "research" },
  extract_data: { text: "Tidal lagoons: https://example.com/lagoons" },
  store_research_output: { mediaType: "markdown" },
};

/** Operations whose ordinary path needs a step freshly claimed: each case gets its own plan and claim. */
const NEEDS_CLAIM = new Set(["submit_step_result", "request_user_review"]);
const CLAIM_FIELDS = ["planId", "stepId", "claimId"];

/** The case with a freshly claimed step in its claim fields, except where the case put a hostile value. */
async function withFreshClaim(apiKey: string, input: unknown, own: OrgHandles): Promise<unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const { planId } = await createPlan(apiKey, { name: "[Scan] hostile claims" });
  const next = await ok(apiKey, "get_next_step", { planId });
  const fresh: Record<string, unknown> = { planId, stepId: (next.step as { stepId: string }).stepId, claimId: next.claimId };
  const placeholders = new Set<unknown>([undefined, own.planId, own.stepId, "tidal energy claimId"]);
  const fields: Record<string, unknown> = { ...input };
  for (const name of CLAIM_FIELDS) if (placeholders.has(fields[name])) fields[name] = fresh[name];
  return fields;
}

/** Arguments for a read operation over the reader's own records. */
function readArguments(operation: AnyOperation, handles: OrgHandles): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const shape = (operation.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  for (const name of Object.keys(shape)) {
    if (name in handles) args[name] = handles[name as keyof OrgHandles];
  }
  if (operation.name === "search_sources" || operation.name === "search") args.query = "tidal";
  if (operation.name === "fetch") args.id = handles.artifactId;
  if (operation.name === "list_skill_executions" || operation.name === "list_artifacts" || operation.name === "list_research_outputs") {
    for (const filter of ["planId", "sessionId"]) delete args[filter];
  }
  return args;
}

/** A hostile call may succeed or be refused, but only as the caller's error: never a server failure. */
async function hostileCall(apiKey: string, operation: AnyOperation, input: unknown): Promise<string | null> {
  const response = await fetchWorker(mcpRequest(apiKey, "tools/call", { name: operation.name, arguments: input }));
  // A 4xx (a body over the size bound, say) is a refusal of the caller's request: allowed.
  if (response.status >= 500) return `HTTP ${response.status}`;
  if (response.status !== 200) return null;
  const message = await readJsonRpc(response);
  if (message.error) return message.error.code === -32602 ? null : `JSON-RPC ${message.error.code}: ${message.error.message}`;
  if (message.result?.isError) {
    const body = JSON.parse(message.result.content?.[0]?.text ?? "{}") as { error?: { code?: string; message?: string } };
    if (body.error?.code === "internal") return `internal error: ${body.error.message}`;
  }
  return null;
}

describe("hostile-tenant invariant", () => {
  it(
    "keeps every read, resource, search and dashboard page of the org working for everyone after hostile writes, and shows another org nothing",
    async () => {
      const { orgId, admin, apiKey: adminKey } = await seedTenant();
      const writer = await seedUser(orgId, "member");
      const reader = await seedUser(orgId, "member");
      const writerKey = (await seedApiKey(orgId, writer.userId)).key;
      const readerKey = (await seedApiKey(orgId, reader.userId)).key;
      const other = await seedTenant();

      const readerRecords = await orgRecords(readerKey, "reader");
      const writerRecords = await orgRecords(writerKey, "writer");
      const foreignRecords = await orgRecords(other.apiKey, "foreign");

      // 1. Hostile writes by one member.
      const failures: string[] = [];
      let pairs = 0;
      for (const [index, operation] of WRITES.entries()) {
        // A key per operation: the battery sends far more than one credential's per-minute budget.
        const key = (await seedApiKey(orgId, writer.userId)).key;
        for (const generated of hostileInputs(operation, writerRecords, foreignRecords, RANDOM_CASES_PER_OPERATION, SEED + index, ORDINARY[operation.name])) {
          pairs++;
          const input = NEEDS_CLAIM.has(operation.name) ? await withFreshClaim(key, generated, writerRecords) : generated;
          const failure = await hostileCall(key, operation, input);
          if (failure) failures.push(`${operation.name} ${JSON.stringify(input).slice(0, 160)} → ${failure}`);
        }
      }
      console.log(`hostile-tenant battery: ${pairs} (operation × case) pairs over ${WRITES.length} write operations, seed ${SEED}`);
      expect(failures).toEqual([]);
      expect(pairs).toBeGreaterThanOrEqual(WRITES.length * (RANDOM_CASES_PER_OPERATION + 20));

      // 2. Every read still answers for another member of the org, on both faces.
      const broken: string[] = [];
      for (const operation of READS) {
        const args = readArguments(operation, readerRecords);
        // Lists are read to their end: a bad row on page 7 must not break page 7.
        for (let page = 0, cursor: unknown; page < 100; page++) {
          const result = await callTool(readerKey, operation.name, cursor ? { ...args, cursor } : args);
          if (result.isError) {
            broken.push(`${operation.name} (MCP) ${JSON.stringify(result.body).slice(0, 200)}`);
            break;
          }
          cursor = result.body.nextCursor;
          if (typeof cursor !== "string") break;
        }
      }
      for (const path of ["/skill-executions", "/plans", "/artifacts", "/outputs", `/plans/${readerRecords.planId}`, `/search?query=tidal`, "/prompts"]) {
        const response = await rest(readerKey, path);
        if (response.status !== 200) broken.push(`GET ${path} (REST) → ${response.status}`);
      }
      const listed = await readJsonRpc(await fetchWorker(mcpRequest(readerKey, "resources/list")));
      const resources = (listed.result?.resources as { uri: string }[] | undefined) ?? [];
      if (listed.error || resources.length === 0) broken.push(`resources/list → ${JSON.stringify(listed.error ?? "empty")}`);
      for (const { uri } of resources.slice(0, 15)) {
        const read = await readJsonRpc(await fetchWorker(mcpRequest(readerKey, "resources/read", { uri })));
        if (read.error) broken.push(`resources/read ${uri} → ${read.error.message}`);
      }
      const visitor = new Visitor();
      expect((await visitor.signIn(reader.email, reader.password)).status).toBe(303);
      const pages = [
        "/dashboard/plans",
        `/dashboard/plans/${readerRecords.planId}`,
        `/dashboard/plans/${writerRecords.planId}`,
        "/dashboard/reviews",
        "/dashboard/executions",
        `/dashboard/executions/${writerRecords.executionId}`,
        `/dashboard/outputs/${writerRecords.outputId}`,
        `/dashboard/plans/${writerRecords.planId}/sources/E1`,
        "/dashboard/analytics",
      ];
      for (const page of pages) {
        const response = await visitor.get(page);
        if (response.status !== 200) broken.push(`${page} → ${response.status}`);
      }
      const adminVisitor = new Visitor();
      expect((await adminVisitor.signIn(admin.email, admin.password)).status).toBe(303);
      const adminPage = await adminVisitor.get("/dashboard/admin");
      if (adminPage.status !== 200) broken.push(`/dashboard/admin → ${adminPage.status}`);
      expect(broken).toEqual([]);
      expect((await callTool(adminKey, "list_skill_executions", {})).isError).toBe(false);

      // 3. The other org sees nothing of this one.
      const ours = [...Object.values(readerRecords), ...Object.values(writerRecords), orgId];
      const seen: string[] = [];
      for (const operation of ["list_skill_executions", "list_active_plans", "list_artifacts", "list_research_outputs"]) {
        const body = JSON.stringify((await callTool(other.apiKey, operation, {})).body);
        for (const id of ours) if (id && body.includes(id)) seen.push(`${operation} shows ${id}`);
      }
      for (const [operation, args] of [
        ["search_sources", { query: "tidal" }],
        ["search", { query: "tidal" }],
      ] as const) {
        const body = JSON.stringify((await callTool(other.apiKey, operation, args)).body);
        for (const id of ours) if (id && body.includes(id)) seen.push(`${operation} shows ${id}`);
        if (body.includes("reader tidal") || body.includes("writer tidal")) seen.push(`${operation} shows this org's text`);
      }
      for (const operation of READS.filter((op) => op.name.startsWith("get_") || op.name === "fetch")) {
        const args = readArguments(operation, readerRecords);
        if (Object.keys(args).length === 0) continue;
        const result = await callTool(other.apiKey, operation.name, args);
        const code = (result.body.error as { code?: string } | undefined)?.code;
        if (!result.isError || code !== "not_found") seen.push(`${operation.name} answered ${code ?? "ok"} for this org's handle`);
      }
      expect(seen).toEqual([]);
    },
    // A budget for the work (random hostile writes and every read after them), not for a quiet machine: it ran past 240 s under load.
    600_000,
  );
});
