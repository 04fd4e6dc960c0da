/** Types for drizzle-kit's generated `migrations.js` (regenerate with `npm run db:generate:do`). */
declare const migrations: { journal: { entries: { idx: number; when: number; tag: string; breakpoints: boolean }[] }; migrations: Record<string, string> };
export default migrations;
