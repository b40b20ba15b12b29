/**
 * The SQL texts of prepared queries (prepared.ts), each with a statement name: the PostgreSQL connection
 * prepares these once per connection (named statements, postgres/pipelined-driver.ts), so the server
 * parses and plans them once, not per call.
 */
export const namedStatements = new Map<string, string>();
