import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/** D1 holds everything org-wide. Times are epoch milliseconds; JSON columns hold text. */

export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
  /**
   * The directory: the D1 binding holding this org's research (src/platform/org-homes.ts). Null until
   * the Worker places a new org; orgs that existed before placement were all in "DB".
   */
  homeDatabase: text("home_database"),
  /** When the import running into this org began (ms), or null: one import at a time (src/platform/org-data/import.ts). */
  importingSince: integer("importing_since"),
  /** The running import's last sign of life (ms): its lock lapses when this grows stale (src/domain/org-data/import-lock.ts). */
  importHeartbeatAt: integer("import_heartbeat_at"),
  /** When the erasure of this org began (ms), or null: from then on nothing is imported into it (src/platform/org-data/erase.ts). */
  erasingSince: integer("erasing_since"),
  /** The default of create_research_plan's approval: "required" or "optional" (src/domain/plans/approval.ts). */
  planApproval: text("plan_approval").notNull().default("optional"),
  /** The source policy's lists, JSON arrays of normalized domains (src/domain/sources/source-policy.ts). */
  sourceBlockedDomains: text("source_blocked_domains").notNull().default("[]"),
  sourcePreferredDomains: text("source_preferred_domains").notNull().default("[]"),
  /** Who may share a deliverable by link: "members", "admins" or "off" (src/domain/shares.ts). */
  sharing: text("sharing").notNull().default("members"),
  /** The approver group: a JSON list of member user ids who approve the org's plans; empty, anyone who may (src/domain/org-settings.ts). */
  approvers: text("approvers").notNull().default("[]"),
  /** Bytes of page snapshots the org keeps (counted in its home's copy of this row; src/storage/snapshot-bytes.ts). */
  snapshotBytes: integer("snapshot_bytes").notNull().default(0),
  /** The org's locale, a BCP 47 tag ("en-US", "ja-JP"), or null: the PDF download's paper (src/domain/research/paper-size.ts). */
  locale: text("locale"),
});

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  /** Stored lower-cased; sign-in compares lower-cased. */
  email: text("email").notNull().unique(),
  displayName: text("display_name").notNull(),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` */
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const memberships = sqliteTable(
  "memberships",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role", { enum: ["member", "admin"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** When the person last chose this org (consent, dashboard), or null: where their next sign-in opens (src/domain/auth/org-choice.ts). */
    lastUsedAt: integer("last_used_at"),
    /** When the operator gave this member a password while the org requires single sign-on (a break-glass admin), or null. */
    passwordBreakGlassAt: integer("password_break_glass_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("memberships_user").on(t.userId)],
);

/** An org's OpenID Connect single sign-on (src/domain/auth/sso/config.ts); migration 0033, hand-written. */
export const orgSso = sqliteTable("org_sso", {
  orgId: text("org_id").primaryKey(),
  issuer: text("issuer").notNull(),
  clientId: text("client_id").notNull(),
  /** Sealed with WEBHOOK_SECRET_KEYS (the org id is the additional data); never returned. */
  clientSecretSealed: text("client_secret_sealed").notNull(),
  /** The provider's discovery document as read when the configuration was saved (JSON). */
  providerMetadata: text("provider_metadata").notNull(),
  defaultRole: text("default_role", { enum: ["member", "admin"] }).notNull(),
  required: integer("required", { mode: "boolean" }).notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** One org per e-mail domain: an address leads to exactly one provider. */
export const orgSsoDomains = sqliteTable("org_sso_domains", { domain: text("domain").primaryKey(), orgId: text("org_id").notNull() }, (t) => [index("org_sso_domains_org").on(t.orgId)]);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    /** The user the key acts as (its creator); audit entries name them. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** First characters of the key, shown in lists so a person can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    /** JSON array of scopes. */
    scopes: text("scopes").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_org").on(t.orgId, t.createdAt)],
);

export const skillExecutions = sqliteTable(
  "skill_executions",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    userId: text("user_id").notNull(),
    clientId: text("client_id"),
    skillName: text("skill_name").notNull(),
    status: text("status", { enum: ["started", "executing", "completed", "failed"] }).notNull(),
    sessionId: text("session_id"),
    planId: text("plan_id"),
    metadata: text("metadata").notNull(),
    errorMessage: text("error_message"),
    closedReason: text("closed_reason"),
    version: integer("version").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [
    index("skill_executions_org_created").on(t.orgId, t.createdAt, t.id),
    index("skill_executions_org_session").on(t.orgId, t.sessionId, t.status, t.createdAt),
    index("skill_executions_org_plan").on(t.orgId, t.planId),
  ],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    actorUserId: text("actor_user_id").notNull(),
    actorClientId: text("actor_client_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    detail: text("detail").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("audit_log_org_created").on(t.orgId, t.createdAt), index("audit_log_target").on(t.orgId, t.targetId)],
);

export const toolCallLog = sqliteTable(
  "tool_call_log",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    userId: text("user_id").notNull(),
    clientId: text("client_id"),
    apiKeyId: text("api_key_id"),
    face: text("face", { enum: ["mcp", "rest"] }).notNull(),
    operation: text("operation").notNull(),
    durationMs: integer("duration_ms").notNull(),
    outcome: text("outcome", { enum: ["ok", "error"] }).notNull(),
    errorCode: text("error_code"),
    correlationId: text("correlation_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("tool_call_log_org_created").on(t.orgId, t.createdAt), index("tool_call_log_operation").on(t.operation, t.createdAt)],
);

/**
 * The org-wide index of research plans, projected from each plan's Durable
 * Object through its outbox. `index_seq` only grows, so a late retry never
 * overwrites a newer projection.
 */
export const plans = sqliteTable(
  "plans",
  {
    planId: text("plan_id").primaryKey(),
    orgId: text("org_id").notNull(),
    name: text("name").notNull(),
    researchQuestion: text("research_question").notNull().default(""),
    status: text("status").notNull(),
    derivedStatus: text("derived_status").notNull(),
    progress: integer("progress").notNull(),
    stalled: integer("stalled", { mode: "boolean" }).notNull(),
    totalSteps: integer("total_steps").notNull(),
    completedSteps: integer("completed_steps").notNull(),
    failedSteps: integer("failed_steps").notNull(),
    currentStepOrder: integer("current_step_order"),
    sessionId: text("session_id"),
    executionId: text("execution_id"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    indexSeq: integer("index_seq").notNull(),
    /** The most spent share of any budget limit, in percent (null: no budget); 1 while a budget review waits. */
    budgetPercent: integer("budget_percent"),
    budgetExhausted: integer("budget_exhausted", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("plans_org_status").on(t.orgId, t.status, t.updatedAt), index("plans_org_updated").on(t.orgId, t.updatedAt, t.planId)],
);

/**
 * Research artifacts (seed 000 phases 3 and 5): the latest version of each, searchable.
 * `seq` is the integer key the full-text index (artifacts_fts, a hand-written migration) points at.
 */
export const artifacts = sqliteTable(
  "artifacts",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    orgId: text("org_id").notNull(),
    artifactType: text("artifact_type").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    contentText: text("content_text").notNull(),
    /** What the full-text indexes get of the title and the text when it differs from them (migration 0039, src/domain/research/search-text.ts); NULL: the title, the text. */
    searchTitle: text("search_title"),
    searchText: text("search_text"),
    confidence: real("confidence"),
    planId: text("plan_id"),
    stepId: text("step_id"),
    tags: text("tags").notNull(),
    /** Tags as " tag1 tag2 " for exact-tag filtering with LIKE '% tag %'. */
    tagIndex: text("tag_index").notNull(),
    sourceUrl: text("source_url"),
    version: integer("version").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // artifacts_org_seq (org_id, then seq as the rowid) says in one step whether an org has artifacts older than
  // its window in the recent full-text index (migration 0036, with that index, its members and its triggers);
  // artifacts_org_search_filters gives a search's filters their columns by org and seq without reading the rows (0044).
  (t) => [index("artifacts_org_updated").on(t.orgId, t.updatedAt, t.id), index("artifacts_org_plan").on(t.orgId, t.planId), index("artifacts_org_seq").on(t.orgId), index("artifacts_org_search_filters").on(t.orgId, t.seq, t.artifactType, t.planId, t.tagIndex, t.updatedAt)],
);

/** Every version an artifact has had: storing again never overwrites silently. */
export const artifactVersions = sqliteTable(
  "artifact_versions",
  {
    artifactId: text("artifact_id").notNull(),
    version: integer("version").notNull(),
    orgId: text("org_id").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    contentText: text("content_text").notNull(),
    confidence: real("confidence"),
    tags: text("tags").notNull(),
    sourceUrl: text("source_url"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artifactId, t.version] })],
);

/** Deliverables (seed 000 phase 6): the formatted output of a plan, versioned like artifacts and searchable. */
export const researchOutputs = sqliteTable(
  "research_outputs",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    orgId: text("org_id").notNull(),
    planId: text("plan_id"),
    executionId: text("execution_id"),
    title: text("title").notNull(),
    mediaType: text("media_type").notNull(),
    content: text("content").notNull(),
    /** What the full-text index gets of the title and the content when it differs from them (migration 0042, src/domain/research/search-text.ts); NULL: the title, the content. */
    searchTitle: text("search_title"),
    searchContent: text("search_content"),
    formattingInstructions: text("formatting_instructions"),
    citations: text("citations").notNull(),
    version: integer("version").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("research_outputs_org_updated").on(t.orgId, t.updatedAt, t.id), index("research_outputs_org_plan").on(t.orgId, t.planId)],
);

export const researchOutputVersions = sqliteTable(
  "research_output_versions",
  {
    outputId: text("output_id").notNull(),
    version: integer("version").notNull(),
    orgId: text("org_id").notNull(),
    title: text("title").notNull(),
    mediaType: text("media_type").notNull(),
    content: text("content").notNull(),
    formattingInstructions: text("formatting_instructions"),
    citations: text("citations").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.outputId, t.version] })],
);

/**
 * Keep checking after delivery (migration 0022): the ledger sources a deliverable's current version cites, each
 * with its verdict at delivery and the last change announced for it (src/storage/delivered-sources.ts).
 */
export const researchOutputSources = sqliteTable(
  "research_output_sources",
  {
    orgId: text("org_id").notNull(),
    outputId: text("output_id").notNull(),
    version: integer("version").notNull(),
    planId: text("plan_id").notNull(),
    n: integer("n").notNull(),
    deliveredStatus: text("delivered_status").notNull(),
    deliveredSnapshot: text("delivered_snapshot"),
    deliveredAt: integer("delivered_at").notNull(),
    announced: text("announced"),
    announcedAt: integer("announced_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.outputId, t.planId, t.n] }), index("research_output_sources_evidence").on(t.orgId, t.planId, t.n)],
);

/**
 * Deliverables rendered once per version (migration 0028): what the dashboard rendered a version's Markdown to, or
 * that it is shown as text (src/storage/rendered-outputs.ts). A cache: not exported, erased with the org's research.
 */
export const renderedOutputs = sqliteTable(
  "rendered_outputs",
  {
    orgId: text("org_id").notNull(),
    outputId: text("output_id").notNull(),
    version: integer("version").notNull(),
    renderer: integer("renderer").notNull(),
    contentSha256: text("content_sha256").notNull(),
    kind: text("kind", { enum: ["html", "text"] }).notNull(),
    html: text("html"),
    note: text("note"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.outputId, t.version, t.renderer] })],
);

/**
 * Deliverables' files rendered once (migration 0035): a DOCX kept per deliverable and format, served only for the
 * version, renderer and state (title, text, cited sources and their checks) it was made from. A cache: not exported,
 * erased with the org's research.
 */
export const renderedFiles = sqliteTable(
  "rendered_files",
  {
    orgId: text("org_id").notNull(),
    outputId: text("output_id").notNull(),
    format: text("format").notNull(),
    version: integer("version").notNull(),
    renderer: integer("renderer").notNull(),
    stateSha256: text("state_sha256").notNull(),
    body: blob("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.outputId, t.format] })],
);

/** A plan's schedule: a series of runs the cron creates when each is due (migration 0031; src/domain/plans/schedule.ts). */
export const planSchedules = sqliteTable(
  "plan_schedules",
  {
    seriesId: text("series_id").primaryKey(),
    orgId: text("org_id").notNull(),
    planId: text("plan_id").notNull(),
    every: text("every", { enum: ["day", "week", "month"] }).notNull(),
    startAt: integer("start_at").notNull(),
    until: integer("until"),
    dueIndex: integer("due_index").notNull(),
    nextDueAt: integer("next_due_at").notNull(),
    nextRunNumber: integer("next_run_number").notNull(),
    missedInARow: integer("missed_in_a_row").notNull(),
    status: text("status", { enum: ["active", "paused", "ended", "stopped"] }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("plan_schedules_org_plan").on(t.orgId, t.planId), index("plan_schedules_due").on(t.status, t.nextDueAt)],
);

/** One run of a series: (series_id, run_number) is unique, so a due time gives one run however often the cron fires. */
export const planSeriesRuns = sqliteTable(
  "plan_series_runs",
  {
    seriesId: text("series_id").notNull(),
    runNumber: integer("run_number").notNull(),
    orgId: text("org_id").notNull(),
    planId: text("plan_id").notNull(),
    dueAt: integer("due_at").notNull(),
    status: text("status", { enum: ["due", "started", "missed"] }).notNull(),
    planCreated: integer("plan_created").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.runNumber] }),
    uniqueIndex("plan_series_runs_org_plan").on(t.orgId, t.planId),
    index("plan_series_runs_unfinished").on(t.planCreated).where(sql`${t.planCreated} = 0`),
  ],
);

/**
 * Share links (migration 0029): a read-only link to one deliverable for people outside the org, in the directory; only
 * the SHA-256 of its token is kept (src/storage/output-shares.ts). Not exported, erased with the org's research.
 */
export const outputShares = sqliteTable(
  "output_shares",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    outputId: text("output_id").notNull(),
    tokenSha256: text("token_sha256").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    views: integer("views").notNull().default(0),
    lastViewedAt: integer("last_viewed_at"),
  },
  (t) => [uniqueIndex("output_shares_token").on(t.tokenSha256), index("output_shares_output").on(t.orgId, t.outputId, t.createdAt)],
);

/** seed 000: the two feedback moments, initial (right after delivery) and closing. */
export const researchFeedback = sqliteTable(
  "research_feedback",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    planId: text("plan_id"),
    outputId: text("output_id"),
    executionId: text("execution_id"),
    phase: text("phase", { enum: ["initial", "closing"] }).notNull(),
    satisfaction: integer("satisfaction"),
    summary: text("summary").notNull(),
    improvementSuggestions: text("improvement_suggestions").notNull(),
    followUpRequested: integer("follow_up_requested", { mode: "boolean" }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("research_feedback_org_created").on(t.orgId, t.createdAt), index("research_feedback_org_plan").on(t.orgId, t.planId)],
);

/**
 * An org admin's webhook subscription: where to send which events, signed with
 * its secret (Standard Webhooks). After a rotation the previous secret also
 * signs until `previous_secret_expires_at`. `failing_since` is the first failed
 * delivery with no success since; past the limit the subscription is disabled
 * and `disabled_reason` says why.
 */
export const webhookSubscriptions = sqliteTable(
  "webhook_subscriptions",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    url: text("url").notNull(),
    events: text("events").notNull(),
    description: text("description").notNull().default(""),
    /** Sealed with the deployment's key (WEBHOOK_SECRET_KEYS); clear text only in rows from before sealing, until first use. */
    secret: text("secret").notNull(),
    /** Cairn's public origin when the subscription was made: payload links to the dashboard start there. */
    cairnOrigin: text("cairn_origin").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    failingSince: integer("failing_since"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhook_subscriptions_org").on(t.orgId, t.createdAt)],
);

/**
 * One event for one subscription: its body as sent (the signature covers it),
 * and how its delivery went. The event id is the `webhook-id` of every attempt.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed", "cancelled"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deliveredAt: integer("delivered_at"),
    /** When the dead-letter queue took it, out of retries. */
    deadLetteredAt: integer("dead_lettered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_subscription_event").on(t.subscriptionId, t.eventId),
    index("webhook_deliveries_org_subscription").on(t.orgId, t.subscriptionId, t.createdAt),
    index("webhook_deliveries_status_updated").on(t.status, t.updatedAt),
  ],
);

/**
 * Webhook events decided in the Worker, written in the same batch as the change they announce (in the
 * org's home database) and removed once the webhook queue has taken them; the sweeper sends what is left.
 */
export const webhookEventOutbox = sqliteTable(
  "webhook_event_outbox",
  {
    eventId: text("event_id").primaryKey(),
    orgId: text("org_id").notNull(),
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
  },
  (t) => [index("webhook_event_outbox_due").on(t.nextAttemptAt), index("webhook_event_outbox_org").on(t.orgId)],
);

/**
 * What an org imported per UTC day (`day`: days since the epoch), counted as the import reads its
 * file, refused or not: the daily import budget (src/domain/org-data/import-budget.ts).
 */
export const orgImportUsage = sqliteTable(
  "org_import_usage",
  {
    orgId: text("org_id").notNull(),
    day: integer("day").notNull(),
    rowsRead: integer("rows_read").notNull().default(0),
    bytesRead: integer("bytes_read").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);

/**
 * What an org import wrote, as it goes (src/platform/org-data/import-journal.ts): per batch and table the
 * rowid range it inserted (`first_rowid`..`last_rowid`, written in the batch's own transaction, in the
 * database holding the rows), or a plan or search session it recreated (`object_id`, in the directory).
 * `import_lock` is the import's `orgs.importing_since`. Cleared when the import ends; what a dead import
 * left is taken back from it by the org's next import or erasure.
 */
export const orgImportJournal = sqliteTable(
  "org_import_journal",
  {
    id: integer("id").primaryKey(),
    orgId: text("org_id").notNull(),
    importLock: integer("import_lock").notNull(),
    tableName: text("table_name").notNull(),
    firstRowid: integer("first_rowid"),
    lastRowid: integer("last_rowid"),
    objectId: text("object_id"),
  },
  (t) => [index("org_import_journal_org_idx").on(t.orgId, t.importLock)],
);

/** A member's choice of the events that reach them by e-mail (JSON list); absent: the defaults (src/domain/notifications/policy.ts). */
export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    orgId: text("org_id").notNull(),
    userId: text("user_id").notNull(),
    emailEvents: text("email_events").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] })],
);

/** An org's notification channel: a Slack-compatible webhook URL (sealed like webhook secrets) or an e-mail address. */
export const notificationChannels = sqliteTable(
  "notification_channels",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    kind: text("kind", { enum: ["slack", "email"] }).notNull(),
    /** slack: the URL sealed with WEBHOOK_SECRET_KEYS; email: the address. */
    target: text("target").notNull(),
    events: text("events").notNull(),
    cairnOrigin: text("cairn_origin").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    /** When the address confirmed (or the channel was added, for Slack and a member's own address); null: waiting (migration 0034). */
    confirmedAt: integer("confirmed_at"),
    /** SHA-256 of the confirmation link's token, cleared once used. */
    confirmTokenSha256: text("confirm_token_sha256"),
    confirmExpiresAt: integer("confirm_expires_at"),
  },
  (t) => [index("notification_channels_org").on(t.orgId, t.createdAt), uniqueIndex("notification_channels_confirm_token").on(t.confirmTokenSha256)],
);

/** One event for one recipient (`user:<id>` or `channel:<id>`): at most one per pair; sent alone or in a digest. */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    recipient: text("recipient").notNull(),
    userId: text("user_id"),
    channelId: text("channel_id"),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    event: text("event").notNull(),
    cairnOrigin: text("cairn_origin").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed", "cancelled"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentTo: text("sent_to"),
    subject: text("subject"),
    bodyText: text("body_text"),
    messageId: text("message_id"),
    /** The delivery whose message carried this one (itself, or the first of a digest). */
    sentWith: text("sent_with"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    sentAt: integer("sent_at"),
    deadLetteredAt: integer("dead_lettered_at"),
  },
  (t) => [
    uniqueIndex("notification_deliveries_recipient_event").on(t.recipient, t.eventId),
    index("notification_deliveries_recipient_status").on(t.recipient, t.status, t.createdAt),
    index("notification_deliveries_org").on(t.orgId, t.createdAt),
  ],
);

/** Messages an org sent per UTC day, against its daily cap. */
export const notificationDailyUsage = sqliteTable(
  "notification_daily_usage",
  {
    orgId: text("org_id").notNull(),
    day: text("day").notNull(),
    sent: integer("sent").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);

/**
 * People's comments on a deliverable (output_id) or on a step's result (plan_id, step_id), migration 0038
 * (src/storage/comment-repository.ts). A deliverable's comment keeps its plan too, so a plan's read lists them.
 * `reply_to` is the thread's first comment; a thread's resolution is written on every comment of it.
 */
export const comments = sqliteTable(
  "comments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    outputId: text("output_id"),
    planId: text("plan_id"),
    stepId: text("step_id"),
    replyTo: text("reply_to"),
    body: text("body").notNull(),
    anchorHeading: text("anchor_heading"),
    anchorQuote: text("anchor_quote"),
    authorUserId: text("author_user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    resolvedAt: integer("resolved_at"),
    resolvedBy: text("resolved_by"),
    answeredByOutputId: text("answered_by_output_id"),
    answeredByVersion: integer("answered_by_version"),
  },
  (t) => [index("comments_output").on(t.orgId, t.outputId, t.createdAt), index("comments_plan").on(t.orgId, t.planId, t.createdAt)],
);
