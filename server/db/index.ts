import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database, DialectName } from './schema';
import { migrationProvider } from './migrations/index';

export type { Database, DialectName } from './schema';
export type Db = Kysely<Database>;

export interface StorageOptions {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * Transactions that take SQLite's write lock when they begin. A transaction begun the default way reads under a
 * snapshot and asks for the lock at its first write; if another process (the admin CLI beside the server) wrote in
 * between, SQLite refuses it at once with "database is locked", whatever the busy timeout. Begun this way, it waits
 * its turn instead. Within a process Kysely already runs one transaction at a time on the one connection.
 */
class WritingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WritingSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WritingSqliteDriver(this.settings);
  }
}

/** SQLite (WAL) under dataDir by default; PostgreSQL when a connection string is given. */
export function openDatabase(options: StorageOptions): { db: Db; dialect: DialectName } {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover) is replaced on the next query, which reports the
    // failure if the database is really gone; without a listener the drop would end the process.
    pool.on('error', () => {});
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = new SQLite(join(options.dataDir, 'workbench.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new WritingSqliteDialect({ database: keepingStatements(file) }) }),
    dialect: 'sqlite',
  };
}

/** Prepared statements a SQLite connection keeps, the most recently used ones. */
const KEPT_STATEMENTS = 1000;

/**
 * The connection with its prepared statements kept by their SQL text: Kysely prepares every query it runs, and
 * preparing (parsing and planning the SQL) took as long as running it. The server's queries are a few hundred
 * texts with their values bound apart, so nearly every query finds its statement ready. SQLite prepares a kept
 * statement again by itself when the schema changes under it.
 */
function keepingStatements(file: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => void file.close(),
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement) kept.delete(text);
      else {
        statement = file.prepare(text);
        if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
      }
      kept.set(text, statement);
      return statement;
    },
  };
}

/** the migrations a database has run, in the order it ran them ([] before the first) */
async function executedMigrations(db: Db): Promise<Array<{ name: string; timestamp: string }>> {
  try {
    const { rows } = await sql<{
      name: string;
      timestamp: string;
    }>`select name, timestamp from kysely_migration`.execute(db);
    return rows.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

/**
 * Applies every pending migration in name order; throws with the failing migration's name. New migrations must
 * be named after the last one. A database from before that rule may have run a later name before an earlier one
 * landed: it is brought up to date once out of order, and its history is then renumbered into name order (the
 * migrations are independent of each other) so that the ordered rule holds from then on.
 */
export async function migrate(db: Db, dialect: DialectName): Promise<string[]> {
  const provider = migrationProvider(dialect);
  const names = Object.keys(await provider.getMigrations()).sort();
  const ran = await executedMigrations(db);
  const applied: string[] = [];
  const byName = ran.map((r) => r.name).sort();
  const inOrder = ran.every((r, i) => r.name === names[i]);
  if (!inOrder) {
    if (!byName.every((n, i) => n === names[i]))
      applied.push(...(await run(new Migrator({ db, provider, allowUnorderedMigrations: true }))));
    const history = await executedMigrations(db);
    const base = Date.parse(history[0]?.timestamp ?? new Date().toISOString());
    const sorted = history.map((r) => r.name).sort();
    for (const [i, name] of sorted.entries()) {
      const timestamp = new Date(base + i).toISOString();
      await sql`update kysely_migration set timestamp = ${timestamp} where name = ${name}`.execute(db);
    }
  }
  applied.push(...(await run(new Migrator({ db, provider, allowUnorderedMigrations: false }))));
  return applied;
}

async function run(migrator: Migrator): Promise<string[]> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether a failed statement broke a unique constraint (PostgreSQL 23505, SQLite's CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = e?.code;
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
  return typeof e?.message === 'string' && /UNIQUE constraint/i.test(e.message);
}

export const nowIso = (): string => new Date().toISOString();
export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
