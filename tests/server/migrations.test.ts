// Migrations run in name order; a database from before that rule (a later name run before an earlier one landed)
// is brought up to date once and its history renumbered, after which the ordered rule holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../server/db';
import { migrationProvider } from '../../server/db/migrations/index';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fresh(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'wb-migrate-'));
  dirs.push(dir);
  const { db } = openDatabase({ dataDir: dir });
  dbs.push(db);
  return db;
}

const history = async (db: Db) =>
  (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration`.execute(db)).rows
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    .map((r) => r.name);

describe('migrations', () => {
  it('run every migration in name order once', async () => {
    const db = fresh();
    const names = Object.keys(await migrationProvider('sqlite').getMigrations()).sort();
    expect(await migrate(db, 'sqlite')).toEqual(names);
    expect(await history(db)).toEqual(names);
    expect(await migrate(db, 'sqlite')).toEqual([]);
  });

  it('bring a database that ran a later migration before an earlier one up to date, then keep the order', async () => {
    const db = fresh();
    await migrate(db, 'sqlite');
    // as if 0009 had landed after this database ran 0010
    const all = await migrationProvider('sqlite').getMigrations();
    await all['0009_auth_failures'].down!(db);
    await sql`delete from kysely_migration where name = '0009_auth_failures'`.execute(db);
    await sql`update kysely_migration set timestamp = '2000-01-01T00:00:00.000Z' where name = '0010_scale'`.execute(db);
    expect((await history(db))[0]).toBe('0010_scale');

    expect(await migrate(db, 'sqlite')).toEqual(['0009_auth_failures']);
    await sql`select count(*) from auth_failures`.execute(db);
    expect(await history(db)).toEqual(Object.keys(all).sort());
    expect(await migrate(db, 'sqlite')).toEqual([]);
  });
});

describe('kept statements', () => {
  it('answer from the schema of the moment after a migration changes a table under them', async () => {
    const db = fresh();
    await sql`create table notes (id integer primary key, body text)`.execute(db);
    await sql`insert into notes (body) values (${'一'})`.execute(db);
    const all = () => sql<Record<string, unknown>>`select * from notes order by id`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, body: '一' }]);
    // the same query text again after the table changed: the kept statement reads the new column
    await sql`alter table notes add column seen integer not null default 0`.execute(db);
    await sql`insert into notes (body, seen) values (${'二'}, ${1})`.execute(db);
    expect((await all()).rows).toEqual([
      { id: 1, body: '一', seen: 0 },
      { id: 2, body: '二', seen: 1 },
    ]);
    // and a kept write with other values bound
    const add = (body: string) => sql`insert into notes (body) values (${body})`.execute(db);
    await add('三');
    await add('四');
    expect((await all()).rows.map((r) => r.body)).toEqual(['一', '二', '三', '四']);
  });
});
