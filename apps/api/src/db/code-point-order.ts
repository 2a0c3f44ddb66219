import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.js';

/**
 * A text column to order by its characters' code points, on either database: SQLite compares text byte by byte
 * (BINARY, which is code point order for UTF-8), and PostgreSQL in the database's collation, which is a language's
 * when the database was made in such a locale (initdb takes the system's, commonly en_US.UTF-8): "apple" before
 * "Banana", punctuation and spaces passed over. `COLLATE "C"` is PostgreSQL's byte order, which every PostgreSQL has.
 * Found by the thirtieth session's PostgreSQL probe: one import listed in a different order on each database.
 */
export function byCodePoint(db: Kysely<Database>, column: string): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`${sql.ref(column)} collate "C"`
    : sql<string>`${sql.ref(column)}`;
}
