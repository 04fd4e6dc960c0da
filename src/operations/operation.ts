import type { z } from "zod";
import type { Principal } from "../domain/principal";
import type { Scope } from "../domain/scopes";
import type { Services } from "../domain/ports";

/** How every list and clipped text reads on, said once for all operations (MCP: the server's instructions; REST: the API's description). */
export const PAGING_GUIDE = "Lists are paged: pass nextCursor back as cursor. Clipped text reads on with offset = nextOffset.";

/** MCP tool annotations. Every operation states all four, so no client falls back to a default. */
export interface OperationAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type HttpMethod = "get" | "post" | "patch" | "put" | "delete";

export interface RestBinding<Output = unknown> {
  method: HttpMethod;
  /** OpenAPI-style path under /api/v1, e.g. `/skill-executions/{executionId}`. */
  path: string;
  /** A create: answered with 201 and `Location` (otherwise 200). */
  creates?: CreateBinding<Output>;
}

/** A path under /api/v1 with its ids percent-encoded: restPath`/plans/${planId}`. */
export const restPath = (strings: TemplateStringsArray, ...ids: string[]): string => String.raw({ raw: strings }, ...ids.map(encodeURIComponent));

export interface CreateBinding<Output> {
  /**
   * Where what the call made can be read, a path under /api/v1 (ids already encoded); absent where Cairn has
   * no route that reads it back (feedback), and then 201 comes without `Location`.
   */
  location?(output: Output, input: Readonly<Record<string, unknown>>): string;
  /** For a call that may instead change an existing record (then 200, no `Location`): whether this one created. */
  isNew?(output: Output): boolean;
}

/** What a handler may use. It never sees bindings, requests or tokens. */
export interface OperationContext {
  principal: Principal;
  services: Services;
  correlationId: string;
  /** This deployment's public origin, for links in results (e.g. citation URLs). */
  origin: string;
  now(): number;
}

/**
 * One operation, defined once: the MCP face registers it as a tool and the REST
 * face mounts it as a route, both from these fields.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  annotations: OperationAnnotations;
  input: I;
  output: O;
  rest: RestBinding<z.input<O>>;
  /** How the core MCP profile (`/mcp/core`) lists this tool, when it is one of its tools. */
  core?: CoreListing;
  /** An interactive view hosts with MCP Apps render beside this tool's result ("plan": the plan view). */
  appView?: "plan";
  handler(input: z.output<I>, ctx: OperationContext): Promise<z.input<O>>;
}

/**
 * The core profile's listing of a tool: a shorter description and the optional
 * inputs a small-context assistant can do without, left out of the schema it
 * reads (the operation still accepts them). Names are top-level properties or
 * `Def.property` for a property of a shared definition (`Step.parallelGroup`).
 */
export interface CoreListing {
  description: string;
  hide?: readonly string[];
  /**
   * Optional inputs the core listing marks required: with an alternative hidden (a template in place of the plan's
   * own fields), what is left is what a core caller must give. The operation still checks it.
   */
  require?: readonly string[];
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(operation: Operation<I, O>): Operation<I, O> {
  return operation;
}

/** The registry's element type: any operation, with its input and output types erased. */
// biome-ignore lint/suspicious/noExplicitAny: erasing the handler's parameter type is the point of this alias.
export type AnyOperation = Operation<z.ZodType, z.ZodType> & { handler(input: any, ctx: OperationContext): Promise<unknown> };
