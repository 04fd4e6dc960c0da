import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** Drizzle over D1, with the raw binding at hand for batches (D1's only transactions). */
export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

export const openDatabase = (d1: D1Database): Database => drizzle(d1, { schema });
