// SQLite beside another process: the admin CLI writes to the server's database file while the server runs. A
// transaction that reads and then writes must not be refused because the other connection wrote in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';

const dir = mkdtempSync(join(tmpdir(), 'wb-sqlite-tx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite transactions', () => {
  it('hold the write lock from their start: no other connection writes between their read and write', async () => {
    const { db } = openDatabase({ dataDir: dir });
    // the other process: its own connection to the file, refused at once instead of waiting
    const other = new Database(join(dir, 'workbench.sqlite'));
    try {
      await sql`create table counter (n integer not null)`.execute(db);
      await sql`insert into counter (n) values (0)`.execute(db);
      other.pragma('busy_timeout = 0');
      let otherWrite = 'not tried';
      await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
        try {
          other.prepare('update counter set n = 100').run();
          otherWrite = 'written';
        } catch (error) {
          otherWrite = (error as { code?: string }).code ?? String(error);
        }
        await sql`update counter set n = ${rows[0].n + 1}`.execute(trx);
      });
      // the other connection waited its turn; begun the default way, its write would have gone through and this
      // transaction's update would have failed with "database is locked"
      expect(otherWrite).toBe('SQLITE_BUSY');
      expect((await sql<{ n: number }>`select n from counter`.execute(db)).rows[0].n).toBe(1);
      // once the transaction has ended, the other connection writes as usual
      other.prepare('update counter set n = 100').run();
      expect((await sql<{ n: number }>`select n from counter`.execute(db)).rows[0].n).toBe(100);
    } finally {
      other.close();
      await db.destroy();
    }
  });
});
