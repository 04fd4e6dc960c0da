-- Each org's recent window kept with fewer writes an insert (hand-written: FTS5 and triggers). The window is the
-- same as 0036's, each org's newest 25,000 artifacts, but its members are no longer listed in a table of their own
-- (artifacts_recent: a row and an index entry written, and two deletes looking up the one leaving, at every
-- insert). The org's row says where its window begins (`floor`, the seq of its oldest member: every artifact of
-- the org from there on is a member) and how many members it has; the one leaving is the org's next artifact
-- after `floor`, one step in artifacts_org_seq. bench/search-ingest-cost.mjs measures what an insert costs.
DROP TRIGGER IF EXISTS `artifacts_recent_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `artifacts_recent_orgs_forget`;
--> statement-breakpoint
ALTER TABLE `artifacts_recent_orgs` ADD COLUMN `floor` integer;
--> statement-breakpoint
ALTER TABLE `artifacts_recent_orgs` ADD COLUMN `members` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
-- The window as 0036 left it: its oldest member (members are numbered in seq order) and how many there are.
UPDATE `artifacts_recent_orgs` SET
	`floor` = (SELECT r.seq FROM `artifacts_recent` r INDEXED BY `artifacts_recent_org` WHERE r.org_id = `artifacts_recent_orgs`.org_id ORDER BY r.ordinal LIMIT 1),
	`members` = (SELECT COUNT(*) FROM `artifacts_recent` r INDEXED BY `artifacts_recent_org` WHERE r.org_id = `artifacts_recent_orgs`.org_id);
--> statement-breakpoint
DROP TABLE `artifacts_recent`;
--> statement-breakpoint
-- A new artifact enters its org's window; once the window holds more than 25,000, its oldest member leaves (by
-- rowid: its text is not read) and the floor moves to the org's next artifact. The text indexed is the artifact's
-- indexed form where it has one (0039: words inside CJK and Thai runs), as the full index's.
CREATE TRIGGER `artifacts_recent_insert` AFTER INSERT ON `artifacts` BEGIN
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
	INSERT INTO artifacts_recent_orgs(org_id, stored, floor, members) VALUES (new.org_id, 1, new.seq, 1)
		ON CONFLICT(org_id) DO UPDATE SET stored = stored + 1, members = members + 1, floor = COALESCE(floor, new.seq);
	DELETE FROM artifacts_recent_fts WHERE rowid = (SELECT floor FROM artifacts_recent_orgs WHERE org_id = new.org_id AND members > 25000);
	UPDATE artifacts_recent_orgs SET members = members - 1,
		floor = (SELECT a.seq FROM artifacts a INDEXED BY artifacts_org_seq WHERE a.org_id = new.org_id AND a.seq > artifacts_recent_orgs.floor ORDER BY a.seq LIMIT 1)
	 WHERE org_id = new.org_id AND members > 25000;
END;
--> statement-breakpoint
-- A member deleted leaves the window (the floor moving on when it was the oldest); an org's row goes with its last
-- artifact (an erased org leaves no row named by it). One trigger, so the three happen in this order.
CREATE TRIGGER `artifacts_recent_delete` AFTER DELETE ON `artifacts` BEGIN
	DELETE FROM artifacts_recent_fts WHERE rowid = old.seq AND old.seq >= (SELECT floor FROM artifacts_recent_orgs WHERE org_id = old.org_id);
	UPDATE artifacts_recent_orgs SET members = members - 1,
		floor = CASE WHEN floor = old.seq THEN (SELECT a.seq FROM artifacts a INDEXED BY artifacts_org_seq WHERE a.org_id = old.org_id AND a.seq > old.seq ORDER BY a.seq LIMIT 1) ELSE floor END
	 WHERE org_id = old.org_id AND old.seq >= floor;
	DELETE FROM artifacts_recent_orgs WHERE org_id = old.org_id AND NOT EXISTS (SELECT 1 FROM artifacts INDEXED BY artifacts_org_seq WHERE org_id = old.org_id);
END;
--> statement-breakpoint
CREATE TRIGGER `artifacts_recent_update` AFTER UPDATE ON `artifacts` WHEN old.seq >= (SELECT floor FROM artifacts_recent_orgs WHERE org_id = old.org_id) BEGIN
	DELETE FROM artifacts_recent_fts WHERE rowid = old.seq;
	INSERT INTO artifacts_recent_fts(rowid, title, content_text, tag_index, org_key) VALUES (new.seq, COALESCE(new.search_title, new.title), COALESCE(new.search_text, new.content_text), new.tag_index, replace(replace(new.org_id, '_', ''), '-', ''));
END;
