/** Migrations ship as text modules (wrangler `rules`: `**\/*.sql` → Text). */
declare module "*.sql" {
  const sql: string;
  export default sql;
}
