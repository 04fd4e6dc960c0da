import { CairnError, type ErrorCode, type ValidationIssue } from "./errors";

/**
 * What crosses a Durable Object's RPC boundary instead of a thrown error (RPC keeps only an error's message):
 * the objects answer with it, the storage adapters that call them turn a failure back into a `CairnError`.
 */
export type RpcResult<T> = { ok: true; value: T; bookmark?: string } | { ok: false; error: RpcError };

export interface RpcError {
  code: ErrorCode;
  message: string;
  issues?: ValidationIssue[];
  /** forbidden: the page where a person does it (a plan's approval page). */
  url?: string;
}

/** A `CairnError` as an answer across RPC. */
export const rpcFailure = (error: CairnError): RpcResult<never> => ({
  ok: false,
  error: { code: error.code, message: error.message, ...(error.details.issues ? { issues: error.details.issues } : {}), ...(error.details.url ? { url: error.details.url } : {}) },
});

/** The `CairnError` an RPC failure carried. */
export const fromRpcError = ({ code, message, issues, url }: RpcError): CairnError => new CairnError(code, message, { ...(issues ? { issues } : {}), ...(url ? { url } : {}) });
