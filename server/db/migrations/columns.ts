import { sql, type ColumnDefinitionBuilder, type RawBuilder } from 'kysely';
import type { DialectName } from '../schema';

/** A table's own integer key, as each dialect spells it. */
export interface IdColumn {
  type: RawBuilder<unknown>;
  build: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
}

export function idColumn(dialect: DialectName): IdColumn {
  // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT; PostgreSQL: an identity column.
  return dialect === 'postgres'
    ? { type: sql`integer`, build: (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity() }
    : { type: sql`integer`, build: (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement() };
}
