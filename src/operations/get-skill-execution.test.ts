import { describe, expect, it } from "vitest";
import { callTool, rest, seedTenant } from "../../test/support/worker";

describe("get_skill_execution", () => {
  it("returns the full record, metadata included, on both faces", async () => {
    const { apiKey } = await seedTenant();
    const created = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: "t", delegatedTo: "scan" } });
    const viaMcp = await callTool(apiKey, "get_skill_execution", { executionId: created.body.executionId });
    const viaRest = await (await rest(apiKey, `/skill-executions/${created.body.executionId}`)).json();
    // The whole record (the create's acknowledgement names only the id and status: it echoes nothing).
    const expected = {
      executionId: created.body.executionId,
      skillName: "research",
      status: "started",
      sessionId: null,
      planId: null,
      userId: expect.stringMatching(/^usr_/),
      metadata: { topic: "t", delegatedTo: "scan" },
      metadataClipped: [],
      closedReason: null,
      errorMessage: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      completedAt: null,
      nextOffset: null,
    };
    expect(viaMcp.body).toEqual(expected);
    expect(viaRest).toEqual(expected);
  });

  describe("with metadata at its 64 KiB limit", () => {
    const interview = {
      topic: "Heat pumps",
      knownContext: "k".repeat(8000),
      clarifyingQuestions: [0, 1].map((n) => ({ question: `question ${n}`, answer: `${n}`.repeat(8000) })),
      routingRationale: "r".repeat(8000),
      delegatedTo: "deep",
      notes: "n".repeat(30_000),
    };

    it("clips long strings with … and leaves out what no longer fits, naming every cut key", async () => {
      const { apiKey } = await seedTenant();
      const { body: created } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: interview });
      const { body } = await callTool(apiKey, "get_skill_execution", { executionId: created.executionId });
      const metadata = body.metadata as Record<string, unknown>;
      expect(metadata.topic).toBe("Heat pumps");
      expect(metadata.delegatedTo).toBe("deep");
      expect(metadata.knownContext).toBe(`${"k".repeat(999)}…`);
      expect(body.metadataClipped).toEqual(["knownContext", "clarifyingQuestions", "routingRationale", "notes"]);
      expect(body.nextOffset).toBeNull();
      expect(JSON.stringify(body).length).toBeLessThan(14_000);
    });

    it("reads one clipped key whole with field, page by page through nextOffset, on both faces", async () => {
      const { apiKey } = await seedTenant();
      const { body: created } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: interview });
      const executionId = String(created.executionId);
      for (const field of ["notes", "clarifyingQuestions", "knownContext"] as const) {
        let text = "";
        let offset: number | null = 0;
        let pages = 0;
        while (offset !== null) {
          const { body } = await callTool(apiKey, "get_skill_execution", { executionId, field, ...(offset ? { offset } : {}) });
          const page = (body.metadata as Record<string, string>)[field] ?? "";
          expect(page.length).toBeLessThanOrEqual(12_000);
          expect(Object.keys(body.metadata as object)).toEqual([field]);
          expect(body.metadataClipped).toEqual(body.nextOffset === null ? [] : [field]);
          text += page;
          offset = body.nextOffset as number | null;
          pages++;
        }
        const whole = interview[field];
        expect(typeof whole === "string" ? text : JSON.parse(text)).toEqual(whole);
        if (field === "notes") expect(pages).toBe(3);
      }
      const viaRest = (await (await rest(apiKey, `/skill-executions/${executionId}?field=notes&offset=24000`)).json()) as { metadata: { notes: string }; nextOffset: number | null };
      expect(viaRest).toMatchObject({ metadata: { notes: "n".repeat(6000) }, nextOffset: null });
    });

    it("refuses a field that is not a metadata key, and offset without field", async () => {
      const { apiKey } = await seedTenant();
      const { body: created } = await callTool(apiKey, "log_skill_execution", { skillName: "research", metadata: { topic: "t" } });
      const missing = await callTool(apiKey, "get_skill_execution", { executionId: created.executionId, field: "answer" });
      expect(missing.body).toMatchObject({ error: { code: "validation", issues: [{ path: "field" }] } });
      const orphan = await callTool(apiKey, "get_skill_execution", { executionId: created.executionId, offset: 10 });
      expect(orphan.body).toMatchObject({ error: { code: "validation", issues: [{ path: "offset" }] } });
    });
  });

  it.each([
    [{}, "executionId"],
    [{ executionId: "" }, "executionId"],
    [{ executionId: 7 }, "executionId"],
    [{ executionId: "x".repeat(65) }, "executionId"],
    [{ executionId: "exec_1", extra: true }, "(input)"],
  ])("refuses %j with a validation error", async (input, path) => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "get_skill_execution", input);
    expect(body).toMatchObject({ error: { code: "validation" } });
    expect((body as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toContain(path);
  });

  it("answers not_found for an id that does not exist", async () => {
    const { apiKey } = await seedTenant();
    const { body } = await callTool(apiKey, "get_skill_execution", { executionId: "exec_doesnotexist0000000000000" });
    expect(body).toMatchObject({ error: { code: "not_found", message: 'No skill execution with id "exec_doesnotexist0000000000000" exists.' } });
  });
});
