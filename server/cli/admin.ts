/**
 * Admin CLI over the same storage as the server (DATA_DIR / DATABASE_URL):
 *   npm run -s admin -- user create --phone P --password W [--role R] [--name N]
 *   npm run -s admin -- user role --phone P --role R
 *   npm run -s admin -- user list
 *   npm run -s admin -- order paid ORDER_NO     (confirms a payment: grants the product's rights, exactly once)
 *   npm run -s admin -- order list [--phone P]
 *   npm run -s admin -- product list
 *   npm run -s admin -- team create --name N --admin PHONE [--address A]
 *   npm run -s admin -- team add-member --team ID --phone P --role R
 *   npm run -s admin -- team list
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { migrate, openDatabase, type Db } from '../db';
import { passwordProblem } from '../services/passwords';
import { commerceDb, markOrderPaid, OrderProblem, productRights } from '../services/orders';
import { addMember, createTeam, listTeams, TEAM_ROLES, type TeamRole } from '../services/teams';
import { createUser, findOpenUserByPhone, PHONE_PATTERN, ROLES, type Role } from '../services/users';

const USAGE = `usage:
  admin user create --phone P --password W [--role R] [--name N]
  admin user role --phone P --role R
  admin user list
  admin order paid ORDER_NO
  admin order list [--phone P]
  admin product list
  admin team create --name N --admin PHONE [--address A]
  admin team add-member --team ID --phone P --role R
  admin team list
roles: ${ROLES.join(', ')}
team roles: ${TEAM_ROLES.join(', ')}`;

class UsageError extends Error {}

function role(value: string | undefined): Role {
  if (!value || !(ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

function teamRole(value: string | undefined): TeamRole {
  if (!value || !(TEAM_ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of ${TEAM_ROLES.join(', ')}`);
  return value as TeamRole;
}

function teamId(value: string | undefined): number {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id < 1) throw new UsageError('--team must be a team id (see: admin team list)');
  return id;
}

async function openUser(db: Db, p: string) {
  const user = await findOpenUserByPhone(db, p);
  if (!user) throw new UsageError(`no open account with phone ${p} (create it first: admin user create)`);
  return user;
}

function phone(value: string | undefined): string {
  if (!value || !PHONE_PATTERN.test(value)) throw new UsageError('--phone must be 11 digits starting with 1');
  return value;
}

export async function runAdmin(argv: string[], db: Db, out: (line: string) => void): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      phone: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'string' },
      address: { type: 'string' },
      team: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  if (command === 'user create') {
    const password = values.password ?? '';
    const problem = passwordProblem(password);
    if (problem) throw new UsageError(`--password: ${problem}`);
    const user = await createUser(db, { phone: phone(values.phone), password, name: values.name, role: values.role ? role(values.role) : 'free' });
    out(`created uid ${user.uid} ${user.phone} role ${user.role}`);
  } else if (command === 'user role') {
    const p = phone(values.phone);
    const r = role(values.role);
    const user = await findOpenUserByPhone(db, p);
    if (!user) throw new UsageError(`no open account with phone ${p}`);
    await db.updateTable('users').set({ role: r }).where('uid', '=', user.uid).execute();
    out(`uid ${user.uid} ${p}: role ${user.role} -> ${r}`);
  } else if (command === 'user list') {
    const users = await db.selectFrom('users').select(['uid', 'phone', 'name', 'role', 'login_id', 'created_at']).where('closed_at', 'is', null).orderBy('uid').execute();
    out(['uid', 'phone', 'role', 'login_id', 'name', 'created_at'].join('\t'));
    for (const u of users) out([u.uid, u.phone, u.role, u.login_id ?? '-', u.name, u.created_at].join('\t'));
  } else if (positionals[0] === 'order' && positionals[1] === 'paid') {
    const orderNo = positionals[2];
    if (!orderNo || positionals.length > 3) throw new UsageError('order paid takes one ORDER_NO');
    try {
      const result = await markOrderPaid(db, orderNo, { payType: 'admin' });
      if (!result.changed) out(`order ${orderNo} was already paid at ${result.order.paid_at}; nothing granted`);
      else {
        out(`order ${orderNo} paid: uid ${result.order.uid} ${result.order.product_name} x${result.order.quantity}`);
        for (const g of result.granted) out(`  granted right ${g.user_right_type}: ${g.num}${g.expires_at ? ` until ${g.expires_at}` : ''}`);
      }
    } catch (err) {
      if (err instanceof OrderProblem) throw new UsageError(err.message);
      throw err;
    }
  } else if (command === 'order list') {
    let q = commerceDb(db).selectFrom('orders').selectAll().orderBy('id', 'desc').limit(200);
    if (values.phone) {
      const user = await findOpenUserByPhone(db, phone(values.phone));
      if (!user) throw new UsageError(`no open account with phone ${values.phone}`);
      q = q.where('uid', '=', user.uid);
    }
    out(['order_no', 'uid', 'product', 'quantity', 'amount_fen', 'status', 'created_at', 'paid_at'].join('\t'));
    for (const o of await q.execute()) out([o.order_no, o.uid, o.product_name, o.quantity, o.amount, o.status, o.created_at, o.paid_at ?? '-'].join('\t'));
  } else if (command === 'product list') {
    out(['id', 'code', 'name', 'type', 'belong_to', 'price_fen', 'duration_days', 'on_sale', 'rights'].join('\t'));
    for (const p of await commerceDb(db).selectFrom('products').selectAll().orderBy('sort').execute()) {
      const rights = productRights(p).map((r) => `${r.user_right_type}:${r.num}`).join(',');
      out([p.id, p.code, p.name, p.type, p.belong_to, p.price, p.duration_days ?? '-', p.on_sale, rights].join('\t'));
    }
  } else if (command === 'team create') {
    const name = values.name?.trim();
    if (!name) throw new UsageError('--name is required');
    const admin = await openUser(db, phone(values.admin));
    const id = await createTeam(db, { name, address: values.address, adminUid: admin.uid, adminPhone: admin.phone! });
    out(`created team ${id} "${name}" with admin uid ${admin.uid} ${admin.phone}`);
  } else if (command === 'team add-member') {
    const id = teamId(values.team);
    const r = teamRole(values.role);
    const user = await openUser(db, phone(values.phone));
    await addMember(db, { enterpriseId: id, uid: user.uid, phone: user.phone!, role: r });
    out(`team ${id}: uid ${user.uid} ${user.phone} is an active member with role ${r}`);
  } else if (command === 'team list') {
    out(['id', 'name', 'members', 'dictionaries', 'address', 'created_at'].join('\t'));
    for (const team of await listTeams(db)) out([team.id, team.name, team.members, team.dictionaries, team.address || '-', team.created_at].join('\t'));
  } else {
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  const config = loadConfig();
  const { db, dialect } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrate(db, dialect);
    await runAdmin(process.argv.slice(2), db, (line) => console.log(line));
  } catch (err) {
    console.error(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}
