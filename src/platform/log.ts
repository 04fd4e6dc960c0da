/** One structured log line (JSON on stdout), the shape Workers Logs indexes: a level, a message and the fields that say which thing it was about. */
export type LogLevel = "info" | "warn" | "error";

export const log = (level: LogLevel, message: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ level, message, ...fields }));
