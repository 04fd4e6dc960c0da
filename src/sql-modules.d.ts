/** Migrations ship as text modules (wrangler `rules`: `**\/*.sql` → Text). */
declare module "*.sql" {
  const sql: string;
  export default sql;
}

/** The skills ship as text modules too (wrangler `rules`: `**\/*.md` → Text). */
declare module "*.md" {
  const markdown: string;
  export default markdown;
}

/** The MCP App's page ships as a text module too (wrangler `rules`: `**\/*.html` → Text). */
declare module "*.html" {
  const html: string;
  export default html;
}
