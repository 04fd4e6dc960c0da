-- The org's locale (a BCP 47 tag such as "en-US" or "ja-JP"; null until an admin sets one): the PDF download is laid
-- out on US Letter or A4 by it (src/domain/research/paper-size.ts). A new nullable column: existing orgs read as
-- unset (A4), nothing is rewritten.
ALTER TABLE `orgs` ADD `locale` text;
