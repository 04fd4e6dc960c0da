-- The bytes of page snapshots the org keeps in R2 (SOURCE_SNAPSHOTS, orgs/<orgId>/snapshots/), counted when a new
-- snapshot object is written (src/storage/snapshot-bytes.ts); capped by SOURCE_SNAPSHOT_BYTES_PER_ORG.
ALTER TABLE `orgs` ADD `snapshot_bytes` integer DEFAULT 0 NOT NULL;
