import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/**
 * What the repositories ask of D1: statements and batches. A binding and a
 * session (`withSession`, whose reads replicas may serve) both answer it.
 */
export type D1Queries = Pick<D1Database, "prepare" | "batch">;

/** Drizzle over D1, with the raw binding at hand for batches (D1's only transactions). */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Queries };

// Drizzle's D1 driver calls only prepare and batch, which a session has too; its type asks for the whole binding.
export const openDatabase = (d1: D1Queries): Database => drizzle(d1 as D1Database, { schema });
