-- Deliverables are rendered once per version: the dashboard keeps what a deliverable version's Markdown rendered to
-- (src/storage/rendered-outputs.ts), keyed by the renderer's version so a change of renderer renders anew. `kind` is
-- 'html' (the rendered HTML, its cited refs linked at each view) or 'text' (too complex to format: shown as its
-- escaped text, `note` saying why; no HTML kept). `content_sha256` is the hash of the Markdown it was rendered from:
-- a row is served only for that text. One row per deliverable (storing a render replaces the rows of its other
-- versions). Not exported (a cache); erased with the org's research.
CREATE TABLE `rendered_outputs` (
	`org_id` text NOT NULL,
	`output_id` text NOT NULL,
	`version` integer NOT NULL,
	`renderer` integer NOT NULL,
	`content_sha256` text NOT NULL,
	`kind` text NOT NULL,
	`html` text,
	`note` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `output_id`, `version`, `renderer`)
);
--> statement-breakpoint
-- The erasure write gate (migration 0018), as on the other research tables: a render finishing during an erasure keeps nothing.
CREATE TRIGGER `rendered_outputs_org_write_gate` BEFORE INSERT ON `rendered_outputs`
WHEN NOT EXISTS (SELECT 1 FROM `orgs` WHERE `id` = NEW.`org_id` AND `erasing_since` IS NULL)
BEGIN SELECT RAISE(ABORT, 'cairn: organization being erased'); END;
