import type { StoredRow, TableDump } from "../domain/org-data/format";

/**
 * An object's SQLite tables as rows and back, for org export and import. Only
 * the named tables; on restore, columns are checked against the table's own
 * (PRAGMA table_info) before any SQL is built, since the rows come from a file.
 */
export function dumpTables(sql: SqlStorage, tables: readonly string[]): TableDump {
  const dump: TableDump = {};
  // Table names come from the caller's constant list, never from input.
  for (const table of tables) dump[table] = sql.exec<StoredRow>(`SELECT * FROM "${table}" ORDER BY rowid`).toArray();
  return dump;
}

export function restoreTables(sql: SqlStorage, dump: TableDump, tables: readonly string[]): void {
  for (const [table, rows] of Object.entries(dump)) {
    if (!tables.includes(table)) throw new Error(`Not a table of this object: ${table}`);
    const columns = new Set(sql.exec<{ name: string }>(`PRAGMA table_info("${table}")`).toArray().map((column) => column.name));
    for (const row of rows) {
      const names = Object.keys(row);
      const unknown = names.find((name) => !columns.has(name));
      if (unknown) throw new Error(`Table ${table} has no column ${unknown}`);
      sql.exec(`INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`, ...names.map((n) => row[n] ?? null));
    }
  }
}
