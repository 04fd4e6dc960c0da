import { describe, expect, it } from "vitest";
import { fetchWorker, mcpRequest, ORIGIN, readJsonRpc, seedTenant } from "../../test/support/worker";

/** The 2026-07-28 request metadata, naming `version`. */
const modernMeta = (version = "2026-07-28") => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "edges", version: "1" },
});
const modernHeaders = (method: string, version = "2026-07-28") => ({ "mcp-protocol-version": version, "mcp-method": method });

const post = (apiKey: string, body: unknown, version: string) =>
  fetchWorker(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${apiKey}`, "mcp-protocol-version": version },
      body: JSON.stringify(body),
    }),
  );

describe("protocol edges", () => {
  it("negotiates only the revisions it serves whole: 2025-03-26 (batches) and 2024-11-05 (HTTP+SSE) are answered with 2025-11-25", async () => {
    const { apiKey } = await seedTenant();
    const negotiated = async (requested: string) => {
      const params = { protocolVersion: requested, capabilities: {}, clientInfo: { name: "edges", version: "1" } };
      const message = await readJsonRpc(await fetchWorker(mcpRequest(apiKey, "initialize", params, { "mcp-protocol-version": requested })));
      return message.result?.protocolVersion;
    };
    expect(await negotiated("2025-11-25")).toBe("2025-11-25");
    expect(await negotiated("2025-06-18")).toBe("2025-06-18");
    for (const unserved of ["2025-03-26", "2024-11-05", "2024-10-07"]) expect(await negotiated(unserved), unserved).toBe("2025-11-25");
  });

  it("answers a 2025 revision sent the 2026 way with -32022 saying how to speak to Cairn, not that the listed version is unsupported", async () => {
    const { apiKey } = await seedTenant();
    const response = await fetchWorker(mcpRequest(apiKey, "tools/list", { _meta: modernMeta("2025-11-25") }, modernHeaders("tools/list", "2025-11-25")));
    expect(response.status).toBe(400);
    const message = await readJsonRpc(response);
    expect(message.error?.code).toBe(-32022);
    expect(message.error?.data).toEqual({ supported: ["2026-07-28", "2025-11-25", "2025-06-18"], requested: "2025-11-25" });
    expect(message.error?.message).toContain("after an initialize handshake");
    expect(message.error?.message).toContain("2026-07-28");
  });

  it("answers an unsupported version named only in the MCP-Protocol-Version header with -32022 and the supported versions", async () => {
    const { apiKey } = await seedTenant();
    const supported = ["2026-07-28", "2025-11-25", "2025-06-18"];
    // Later than 2026-07-28 (the modern lane), earlier than every served revision, and not a version at all.
    for (const version of ["2027-03-01", "2026-13-45", "1999-01-01", "latest"]) {
      for (const params of [{}, { _meta: modernMeta(version) }]) {
        const response = await fetchWorker(mcpRequest(apiKey, "tools/list", params, modernHeaders("tools/list", version)));
        expect(response.status, version).toBe(400);
        const message = await readJsonRpc(response);
        expect(message.error?.code, `${version} ${JSON.stringify(params)}`).toBe(-32022);
        expect(message.error?.data).toEqual({ supported, requested: version });
      }
    }
    // initialize negotiates whatever its header says; a served version in the header is served.
    const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "edges", version: "1" } };
    expect((await readJsonRpc(await fetchWorker(mcpRequest(apiKey, "initialize", initialize, { "mcp-protocol-version": "1999-01-01" })))).result?.protocolVersion).toBe("2025-11-25");
    expect((await readJsonRpc(await fetchWorker(mcpRequest(apiKey, "tools/list", { _meta: modernMeta() }, modernHeaders("tools/list"))))).error).toBeUndefined();
  });

  it("answers a cursor it never issued with -32602 on every list, in both eras", async () => {
    const { apiKey } = await seedTenant();
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
      const legacy = await readJsonRpc(await fetchWorker(mcpRequest(apiKey, method, { cursor: "bm90LWEtY3Vyc29y" })));
      expect(legacy.error?.code, `${method} 2025-11-25`).toBe(-32602);
      expect(legacy.result, method).toBeUndefined();
      const modern = await readJsonRpc(await fetchWorker(mcpRequest(apiKey, method, { cursor: "x", _meta: modernMeta() }, modernHeaders(method))));
      expect(modern.error?.code, `${method} 2026-07-28`).toBe(-32602);
      // Without a cursor, the whole list.
      expect((await readJsonRpc(await fetchWorker(mcpRequest(apiKey, method)))).error, method).toBeUndefined();
    }
  });

  it("refuses a JSON-RPC response posted on 2026-07-28 as an invalid request, and accepts one on the 2025 lane with 202", async () => {
    const { apiKey } = await seedTenant();
    const answer = { jsonrpc: "2.0", id: 7, result: {} };
    const modern = await post(apiKey, answer, "2026-07-28");
    expect(modern.status).toBe(400);
    const refused = await readJsonRpc(modern);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain("inputResponses");
    expect((await post(apiKey, answer, "2025-11-25")).status).toBe(202);
    // A notification is still accepted on 2026-07-28.
    expect((await post(apiKey, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }, "2026-07-28")).status).toBe(202);
  });
});
