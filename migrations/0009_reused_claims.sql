-- Custom SQL migration file, put your code below! --
-- A claim copied from another plan of the org keeps where it came from (JSON: plan, claim, ref, status, judged and reused times).
ALTER TABLE `ledger_claims` ADD `reused_from` text;
