-- Each bracket of a checked quote with the page words it stands for: a JSON list of {"bracket", "replaces"},
-- set when the quote was placed on the page (verified, or partial because a bracket adds what the page does not
-- say). NULL for verdicts reached before brackets were listed, and for verdicts that placed no quote.
ALTER TABLE `ledger_evidence` ADD `verification_edits` text;
