import { describe, expect, it } from "vitest";
import { CairnError, forbidden, validationError } from "./errors";
import { fromRpcError, rpcFailure } from "./rpc-result";

describe("RpcResult", () => {
  it("carries a CairnError across RPC as plain data and back, issues included", () => {
    const original = validationError("name is too long.", [{ path: "name", message: "At most 200 characters" }]);
    const failure = rpcFailure(original);
    expect(JSON.parse(JSON.stringify(failure))).toEqual({ ok: false, error: { code: "validation", message: "name is too long.", issues: [{ path: "name", message: "At most 200 characters" }] } });
    if (failure.ok) throw new Error("a failure");
    const back = fromRpcError(failure.error);
    expect(back).toBeInstanceOf(CairnError);
    expect(back).toMatchObject({ code: "validation", message: "name is too long.", details: { issues: original.details.issues } });
    const plain = rpcFailure(new CairnError("not_found", "No plan here."));
    expect(plain).toEqual({ ok: false, error: { code: "not_found", message: "No plan here." } });
    if (!plain.ok) expect(fromRpcError(plain.error).details).toEqual({});
  });

  it("keeps a refusal's page (a plan's approval page) across RPC", () => {
    const refused = rpcFailure(forbidden("A person approves this plan.", { url: "https://cairn.example/dashboard/plans/plan_1" }));
    if (refused.ok) throw new Error("a failure");
    expect(fromRpcError(JSON.parse(JSON.stringify(refused.error))).details).toEqual({ url: "https://cairn.example/dashboard/plans/plan_1" });
  });
});
