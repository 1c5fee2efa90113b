import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/admin';
import { migrate, openDatabase, type Db } from '../../server/db';
import { call, login, startTestApp } from './helpers';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-cli-'));
  const opened = openDatabase({ dataDir: dir });
  db = opened.db;
  await migrate(db, opened.dialect);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function admin(...args: string[]) {
  const out: string[] = [];
  await runAdmin(args, db, (line) => out.push(line));
  return out;
}

describe('admin CLI', () => {
  it('creates users, changes roles and lists them', async () => {
    expect(
      await admin('user', 'create', '--phone', '13700000001', '--password', 'secret123', '--role', 'admin'),
    ).toEqual([expect.stringMatching(/^created uid \d+ 13700000001 role admin$/)]);
    await admin('user', 'create', '--phone', '13700000002', '--password', 'secret123', '--name', '编辑');
    expect(await admin('user', 'role', '--phone', '13700000002', '--role', 'dic_admin')).toEqual([
      expect.stringContaining('free -> dic_admin'),
    ]);
    const list = await admin('user', 'list');
    expect(list[0].split('\t')).toEqual(['uid', 'phone', 'role', 'login_id', 'name', 'created_at']);
    expect(list.slice(1).map((l) => l.split('\t').slice(1, 3))).toEqual([
      ['13700000001', 'admin'],
      ['13700000002', 'dic_admin'],
    ]);
  });

  it('refuses bad input with a usage message', async () => {
    await expect(admin('user', 'role', '--phone', '13700000001', '--role', 'emperor')).rejects.toThrow(
      /--role must be one of/,
    );
    await expect(admin('user', 'create', '--phone', '123', '--password', 'secret123')).rejects.toThrow(/--phone/);
    await expect(admin('user', 'create', '--phone', '13700000003', '--password', 'x')).rejects.toThrow(/--password/);
    await expect(admin('user', 'create', '--phone', '13700000001', '--password', 'secret123')).rejects.toThrow(
      /已注册/,
    );
    await expect(admin('coupon', 'make')).rejects.toThrow(/unknown command/);
  });

  it("works on the server's own DATA_DIR: a created account can log in", async () => {
    const server = await startTestApp();
    await server.app.close();
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/cli/admin.ts',
        'user',
        'create',
        '--phone',
        '13700000009',
        '--password',
        'secret123',
        '--role',
        'user',
      ],
      {
        env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '' },
      },
    );
    expect(stdout).toMatch(/created uid \d+ 13700000009 role user/);
    const again = await startTestApp({ dataDir: server.dataDir });
    const token = await login(again.app, '13700000009', 'secret123');
    expect((await call(again.app, 'GET', '/user/user_info', undefined, token)).json.result.role).toBe('user');
    await again.close();
  });
});
