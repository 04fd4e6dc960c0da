import { describe, expect, it } from "vitest";
import { checkOutboundUrl } from "./outbound-address";
import { type OutboundUse, outboundPolicyFor } from "./outbound-gate";

const USES: OutboundUse[] = ["source_check", "search_provider", "webhook", "notification", "sso_provider"];

describe("outboundPolicyFor", () => {
  it("allows loopback only when CAIRN_ENV is exactly development", () => {
    for (const use of USES) {
      expect(outboundPolicyFor("development", use), use).toEqual({ allowLoopback: true });
      expect(checkOutboundUrl("http://127.0.0.1:8888/search", outboundPolicyFor("development", use)).allowed).toBe(true);
    }
  });

  it("fails closed for every other value: production, unset, empty, another case, a near miss, staging", () => {
    for (const value of ["production", undefined, "", "Development", "DEVELOPMENT", " development", "development ", "dev", "develop", "staging", "test", "local"]) {
      for (const use of USES) {
        expect(outboundPolicyFor(value, use), `${String(value)} / ${use}`).toEqual({ allowLoopback: false });
        expect(checkOutboundUrl("http://localhost:8888/search", outboundPolicyFor(value, use)), `${String(value)} / ${use}`).toEqual({ allowed: false, reason: "loopback addresses are not allowed" });
      }
    }
  });

  it("never allows loopback for a client metadata document, which must be reachable from the Internet", () => {
    for (const value of ["development", "production", undefined]) expect(outboundPolicyFor(value, "client_metadata")).toEqual({ allowLoopback: false });
  });

  it("leaves public https hosts to the guard alike in every environment", () => {
    for (const value of ["development", "production", undefined, "staging"]) {
      for (const use of [...USES, "client_metadata" as const]) expect(checkOutboundUrl("https://search.example.org/", outboundPolicyFor(value, use)).allowed).toBe(true);
    }
  });
});
