-- Text an assistant sent for a page Cairn cannot read (record_evidence's sourceText, a paywall or bot wall):
-- kept in R2 under the org (orgs/<org>/client-texts/<sha256>.txt, so erasure deletes it) and named here by its
-- SHA-256. NULL when none was sent. The source check falls back to it only when its own fetch could not read the
-- page; the verdict then says basis client_text.
ALTER TABLE `ledger_evidence` ADD `client_text_sha256` text;
