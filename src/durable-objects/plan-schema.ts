import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A plan's own SQLite, inside its Durable Object: the source of truth for the
 * plan. Rows hold the domain objects as JSON beside the columns the object
 * queries by; results and reports sit in their own columns so that loading the
 * state for a transition does not read them.
 */
export const planRow = sqliteTable("plan", {
  planId: text("plan_id").primaryKey(),
  data: text("data").notNull(),
});

export const stepRows = sqliteTable("steps", {
  stepId: text("step_id").primaryKey(),
  stepOrder: integer("step_order").notNull(),
  data: text("data").notNull(),
  result: text("result"),
  executionReport: text("execution_report"),
});

export const versionRows = sqliteTable("versions", {
  version: integer("version").primaryKey(),
  kind: text("kind").notNull(),
  rationale: text("rationale").notNull(),
  before: text("before").notNull(),
  after: text("after").notNull(),
  actorUserId: text("actor_user_id").notNull(),
  actorClientId: text("actor_client_id"),
  createdAt: integer("created_at").notNull(),
});

export const auditRows = sqliteTable("audit", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  action: text("action").notNull(),
  stepId: text("step_id"),
  detail: text("detail").notNull(),
  actorUserId: text("actor_user_id").notNull(),
  actorClientId: text("actor_client_id"),
  createdAt: integer("created_at").notNull(),
});

/** Index updates for D1 not yet confirmed written: retried by alarm until they are. */
export const outboxRows = sqliteTable("outbox", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  payload: text("payload").notNull(),
  attempts: integer("attempts").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

/** Webhook events this plan decided, not yet handed to the webhook queue: sent after each write, retried by alarm. */
export const webhookOutboxRows = sqliteTable("webhook_outbox", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  payload: text("payload").notNull(),
  attempts: integer("attempts").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});
