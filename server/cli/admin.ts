/**
 * Admin CLI over the same storage as the server (DATA_DIR / DATABASE_URL):
 *   npm run -s admin -- user create --phone P --password W [--role R] [--name N]
 *   npm run -s admin -- user role --phone P --role R
 *   npm run -s admin -- user list
 *   npm run -s admin -- order paid ORDER_NO     (confirms a payment: grants the product's rights, exactly once)
 *   npm run -s admin -- order list [--phone P]
 *   npm run -s admin -- product list
 *   npm run -s admin -- team create --name N --admin PHONE [--address A] [--seats S]
 *   npm run -s admin -- team add-member --team ID --phone P --role R
 *   npm run -s admin -- team list
 *   npm run -s admin -- team grant --team ID --product CODE [--count N]   (a team plan sold offline)
 *   npm run -s admin -- application list [--kind team|api] [--status pending|approved|refused]
 *   npm run -s admin -- application approve ID [--seats S] [--note T]
 *   npm run -s admin -- application refuse ID [--note T]
 *   npm run -s admin -- coupon create --right-type N --amount M --count K [--expires DATE] [--valid-days D]
 *   npm run -s admin -- coupon list [--batch B]
 *   npm run -s admin -- guide show | guide set --file GUIDE.json | guide reset
 *   npm run -s admin -- rules show | rules set --file RULES.txt | rules reset
 *   npm run -s admin -- notice publish --type T --mode M (--text T | --html FILE) [--team ID | --role R] [--expires D]
 *   npm run -s admin -- notice list | notice withdraw ID
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, type ServerConfig } from '../config';
import { migrate, openDatabase, type Db } from '../db';
import { findAllProducts, findLatestOrders } from '../db/repos/orders';
import { findOpenUserByPhone, findOpenUsers, setRole } from '../db/repos/users';
import { createCoupons, listCoupons } from '../domain/commerce/coupons';
import { passwordProblem } from '../domain/accounts/passwords';
import { renderMessage } from '../../openapi/messages';
import { markOrderPaid, OrderProblem, productRights } from '../domain/commerce/orders';
import { addMember, createTeam, listTeams, TEAM_ROLES, type TeamRole } from '../domain/teams/teams';
import { listApplications, reviewApplication } from '../domain/teams/applications';
import { LIMIT_TYPES, RIGHT_TYPES } from '../domain/rights/ledger';
import { grantTeamPackage } from '../domain/teams/packages';
import { teamExists } from '../db/repos/teams';
import { createUser, PHONE_PATTERN, ROLES, type Role } from '../domain/accounts/users';
import { currentGuide, DEFAULT_GUIDE_VERSION, resetGuide, setGuide } from '../domain/guide/guide';
import { currentRules, resetRules, RULES_MAX, setRules } from '../domain/guide/rules';
import {
  allAnnouncements,
  insertAnnouncement,
  withdrawAnnouncement,
  type PublishInput,
} from '../domain/notices/announcements';
import { AppError } from '../errors';
import { jobHandlers } from '../jobs/kinds';
import { endStoredJob, kindMessage } from '../jobs/runner';
import { findJobById, queueOverview, reopenJob, type JobRecord } from '../jobs/store';

const USAGE = `usage:
  admin user create --phone P --password W [--role R] [--name N]
  admin user role --phone P --role R
  admin user list
  admin order paid ORDER_NO
  admin order list [--phone P]
  admin product list
  admin team create --name N --admin PHONE [--address A] [--seats S]
      PHONE becomes the team's root (超级管理员); S seats (default TEAM_DEFAULT_SEATS)
  admin team add-member --team ID --phone P --role R
  admin team list
  admin team grant --team ID --product CODE [--count N]
      gives the team a right package of the product's rights (N times; a plan sold outside the site)
  admin application list [--kind team|api] [--status pending|approved|refused]
  admin application approve ID [--seats S] [--note T]
      a team application creates the team with its applicant as root; an API application allows API keys
  admin application refuse ID [--note T]
  admin coupon create --right-type N --amount M --count K [--expires DATE] [--valid-days D]
      prints K new redemption codes, one a line (they are stored hashed: keep the output)
      --expires YYYY-MM-DD: last day the codes can be redeemed (until 23:59:59 UTC+8), or an ISO timestamp
      --valid-days D: the granted rights expire D days after redemption (default: never)
  admin coupon list [--batch B]
  admin guide show
      prints the guide (version and slides) as JSON: edit it and give it back with guide set
  admin guide set --file GUIDE.json
      {"ver": "001.001.005", "slides": [{"id", "title", "bullets": [...], "images": {"light", "dark"}, "video"}]};
      a new ver shows the guide again to everyone
  admin guide reset
      back to the built-in guide
  admin rules show | rules set --file RULES.txt | rules reset
      the /rules page's text: a line starting with "## " is a heading, a blank line ends a paragraph
  admin notice publish --type T --mode M (--text TEXT | --html FILE) [--team ID | --role R] [--expires DATE]
      T 0 通知, 1 系统升级公告, 2 系统维护通知, 3 安全警告, 4 新功能介绍, 5 活动公告; M 0 notice list, 1 popup;
      everyone unless --team or --role; the running server sends it within its heartbeat (INSTANCE_HEARTBEAT_MS)
  admin notice list
  admin notice withdraw ID
  admin jobs list
      the job queue: counts by kind and state, the oldest queued job, running jobs, the latest failures
  admin jobs retry ID | jobs cancel ID
      queues a failed or cancelled job again (nothing more charged) / ends a queued or running job as cancelled,
      refunded; a server running it stops at its next write
roles: ${ROLES.join(', ')}
team roles: ${TEAM_ROLES.join(', ')}
right types: ${RIGHT_TYPES.join(', ')}`;

class UsageError extends Error {}

function role(value: string | undefined): Role {
  if (!value || !(ROLES as readonly string[]).includes(value))
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

function teamRole(value: string | undefined): TeamRole {
  if (!value || !(TEAM_ROLES as readonly string[]).includes(value))
    throw new UsageError(`--role must be one of ${TEAM_ROLES.join(', ')}`);
  return value as TeamRole;
}

function teamId(value: string | undefined): number {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id < 1)
    throw new UsageError('--team must be a team id (see: admin team list)');
  return id;
}

async function openUser(db: Db, p: string) {
  const user = await findOpenUserByPhone(db, p);
  if (!user) throw new UsageError(`no open account with phone ${p} (create it first: admin user create)`);
  return user;
}

function integerOption(name: string, value: string | undefined, required: boolean): number | undefined {
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

/** A day (end of that day in China Standard Time) or a full ISO-8601 timestamp. */
function expiry(value: string | undefined): string | null {
  if (value === undefined) return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = Date.parse(day ? `${value}T23:59:59.999+08:00` : value);
  if (Number.isNaN(at) || (day && new Date(at + 8 * 3_600_000).toISOString().slice(0, 10) !== value))
    throw new UsageError(`--expires must be YYYY-MM-DD or an ISO timestamp, got "${value}"`);
  if (at <= Date.now()) throw new UsageError('--expires must be in the future');
  return new Date(at).toISOString();
}

function phone(value: string | undefined): string {
  if (!value || !PHONE_PATTERN.test(value)) throw new UsageError('--phone must be 11 digits starting with 1');
  return value;
}

export async function runAdmin(
  argv: string[],
  db: Db,
  out: (line: string) => void,
  // the CLI is a process of its own: it reads the validated settings as the server does
  config: Pick<ServerConfig, 'team'> = loadConfig(),
): Promise<void> {
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
      'right-type': { type: 'string' },
      amount: { type: 'string' },
      count: { type: 'string' },
      expires: { type: 'string' },
      'valid-days': { type: 'string' },
      batch: { type: 'string' },
      seats: { type: 'string' },
      product: { type: 'string' },
      note: { type: 'string' },
      kind: { type: 'string' },
      status: { type: 'string' },
      file: { type: 'string' },
      type: { type: 'string' },
      mode: { type: 'string' },
      text: { type: 'string' },
      html: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  if (command === 'user create') {
    const password = values.password ?? '';
    const problem = passwordProblem(password);
    if (problem) throw new UsageError(`--password: ${renderMessage(problem)}`);
    const user = await createUser(db, {
      phone: phone(values.phone),
      password,
      name: values.name,
      role: values.role ? role(values.role) : 'free',
    });
    out(`created uid ${user.uid} ${user.phone} role ${user.role}`);
  } else if (command === 'user role') {
    const p = phone(values.phone);
    const r = role(values.role);
    const user = await findOpenUserByPhone(db, p);
    if (!user) throw new UsageError(`no open account with phone ${p}`);
    await setRole(db, user.uid, r);
    out(`uid ${user.uid} ${p}: role ${user.role} -> ${r}`);
  } else if (command === 'user list') {
    const users = await findOpenUsers(db);
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
        if (result.teamPackage !== undefined) out(`  became a right package of team ${result.teamPackage}`);
        for (const g of result.granted)
          out(`  granted right ${g.user_right_type}: ${g.num}${g.expires_at ? ` until ${g.expires_at}` : ''}`);
      }
    } catch (err) {
      if (err instanceof OrderProblem) throw new UsageError(err.message);
      throw err;
    }
  } else if (command === 'order list') {
    let uid: number | undefined;
    if (values.phone) {
      const user = await findOpenUserByPhone(db, phone(values.phone));
      if (!user) throw new UsageError(`no open account with phone ${values.phone}`);
      uid = user.uid;
    }
    out(['order_no', 'uid', 'product', 'quantity', 'amount_fen', 'status', 'created_at', 'paid_at'].join('\t'));
    for (const o of await findLatestOrders(db, { uid }))
      out(
        [o.order_no, o.uid, o.product_name, o.quantity, o.amount, o.status, o.created_at, o.paid_at ?? '-'].join('\t'),
      );
  } else if (command === 'product list') {
    out(['id', 'code', 'name', 'type', 'belong_to', 'price_fen', 'duration_days', 'on_sale', 'rights'].join('\t'));
    for (const p of await findAllProducts(db)) {
      const rights = productRights(p)
        .map((r) => `${r.user_right_type}:${r.num}`)
        .join(',');
      out([p.id, p.code, p.name, p.type, p.belong_to, p.price, p.duration_days ?? '-', p.on_sale, rights].join('\t'));
    }
  } else if (command === 'team create') {
    const name = values.name?.trim();
    if (!name) throw new UsageError('--name is required');
    const admin = await openUser(db, phone(values.admin));
    const seats = integerOption('seats', values.seats, false);
    const id = await createTeam(db, {
      name,
      address: values.address,
      adminUid: admin.uid,
      adminPhone: admin.phone!,
      seats: seats ?? config.team.defaultSeats,
    });
    out(`created team ${id} "${name}" with root uid ${admin.uid} ${admin.phone}`);
  } else if (command === 'team add-member') {
    const id = teamId(values.team);
    const r = teamRole(values.role);
    const user = await openUser(db, phone(values.phone));
    await addMember(db, { enterpriseId: id, uid: user.uid, phone: user.phone!, role: r });
    out(`team ${id}: uid ${user.uid} ${user.phone} is an active member with role ${r}`);
  } else if (command === 'team list') {
    out(['id', 'name', 'members', 'dictionaries', 'address', 'created_at'].join('\t'));
    for (const team of await listTeams(db))
      out([team.id, team.name, team.members, team.dictionaries, team.address || '-', team.created_at].join('\t'));
  } else if (command === 'team grant') {
    const id = teamId(values.team);
    const code = values.product?.trim();
    const product = (await findAllProducts(db)).find((p) => p.code === code);
    if (!product) throw new UsageError('--product must be a product code (see: admin product list)');
    if (!(await teamExists(db, id))) throw new UsageError(`no team ${id} (see: admin team list)`);
    const count = integerOption('count', values.count, false) ?? 1;
    if (count < 1) throw new UsageError('--count must be 1 or more');
    const days = product.duration_days == null ? null : Number(product.duration_days) * count;
    const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
    const rights = productRights(product).map((r) => ({
      user_right_type: r.user_right_type,
      num: LIMIT_TYPES.has(r.user_right_type) ? r.num : r.num * count,
    }));
    const pkg = await grantTeamPackage(db, {
      enterpriseId: id,
      productName: product.name,
      orderId: null,
      expiresAt,
      rights,
    });
    out(`team ${id}: right package ${pkg} "${product.name}"${expiresAt ? ` until ${expiresAt}` : ''}`);
  } else if (command === 'application list') {
    const kind = values.kind;
    if (kind !== undefined && kind !== 'team' && kind !== 'api') throw new UsageError('--kind must be team or api');
    const status = values.status;
    if (status !== undefined && status !== 'pending' && status !== 'approved' && status !== 'refused')
      throw new UsageError('--status must be pending, approved or refused');
    out(['id', 'kind', 'status', 'name', 'contact', 'phone', 'user_num', 'team', 'created_at', 'remark'].join('\t'));
    for (const a of await listApplications(db, { kind, status }))
      out(
        [
          a.id,
          a.kind,
          a.status,
          a.name || '-',
          a.contact_name,
          a.phone,
          a.user_num,
          a.enterprise_id ?? '-',
          a.created_at,
          a.remark.replace(/\s+/g, ' ') || '-',
        ].join('\t'),
      );
  } else if (positionals[0] === 'application' && (positionals[1] === 'approve' || positionals[1] === 'refuse')) {
    const id = Number(positionals[2]);
    if (!Number.isInteger(id) || id <= 0 || positionals.length > 3)
      throw new UsageError(`application ${positionals[1]} takes one application ID (see: admin application list)`);
    const approve = positionals[1] === 'approve';
    const { enterpriseId } = await reviewApplication(db, {
      id,
      approve,
      reviewer: null,
      note: values.note,
      seats: integerOption('seats', values.seats, false),
      defaultSeats: config.team.defaultSeats,
    });
    const created = enterpriseId !== null ? `: created team ${enterpriseId}` : '';
    out(`application ${id} ${approve ? 'approved' : 'refused'}${created}`);
  } else if (command === 'coupon create') {
    const rightType = integerOption('right-type', values['right-type'], true)!;
    if (!(RIGHT_TYPES as readonly number[]).includes(rightType))
      throw new UsageError(`--right-type must be one of ${RIGHT_TYPES.join(', ')}`);
    const batch = {
      rightType,
      amount: integerOption('amount', values.amount, true)!,
      count: integerOption('count', values.count, true)!,
      expiresAt: expiry(values.expires),
      validDays: integerOption('valid-days', values['valid-days'], false) ?? null,
    };
    let created: Awaited<ReturnType<typeof createCoupons>>;
    try {
      created = await createCoupons(db, batch);
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
    for (const code of created.codes) out(code);
  } else if (command === 'coupon list') {
    out(['id', 'batch', 'code', 'right_type', 'amount', 'valid_days', 'expires_at', 'used_by', 'used_at'].join('\t'));
    for (const c of await listCoupons(db, values.batch)) {
      out(
        [
          c.id,
          c.batch,
          `…${c.hint}`,
          c.user_right_type,
          c.amount,
          c.valid_days ?? '-',
          c.expires_at ?? '-',
          c.used_by ?? '-',
          c.used_at ?? '-',
        ].join('\t'),
      );
    }
  } else if (command === 'guide show') {
    const guide = await currentGuide(db);
    out(JSON.stringify({ ver: guide.ver, slides: guide.slides }, null, 2));
  } else if (command === 'guide set') {
    if (!values.file) throw new UsageError('guide set takes --file GUIDE.json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(values.file, 'utf8'));
    } catch (error) {
      throw new UsageError(`${values.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      const guide = await setGuide(db, parsed);
      out(`guide ${guide.ver}: ${guide.slides.length} slides`);
    } catch (error) {
      if (error instanceof AppError) throw new UsageError(renderMessage(error.msgCode, error.msgParams));
      throw error;
    }
  } else if (command === 'notice publish') {
    const type = integerOption('type', values.type, true)!;
    const mode = integerOption('mode', values.mode, true)!;
    if (type < 0 || type > 5) throw new UsageError('--type must be 0 to 5');
    if (mode !== 0 && mode !== 1) throw new UsageError('--mode must be 0 (notice list) or 1 (popup)');
    if (values.team && values.role) throw new UsageError('give --team or --role, not both');
    const input: PublishInput = {
      announcement_type: type as PublishInput['announcement_type'],
      display_mode: mode,
      ...(values.text ? { text: values.text } : {}),
      ...(values.html ? { html_text: readFileSync(values.html, 'utf8') } : {}),
      audience: values.team ? 'team' : values.role ? 'role' : 'all',
      ...(values.team ? { enterprise_id: teamId(values.team) } : {}),
      ...(values.role ? { role: role(values.role) } : {}),
      ...(values.expires ? { expires_at: expiry(values.expires) } : {}),
    };
    try {
      out(`announcement ${await insertAnnouncement(db, input, null)} published`);
    } catch (error) {
      if (error instanceof AppError) throw new UsageError(renderMessage(error.msgCode, error.msgParams));
      throw error;
    }
  } else if (command === 'notice list') {
    out(['id', 'type', 'mode', 'audience', 'delivered', 'read', 'expires_at', 'withdrawn_at', 'text'].join('\t'));
    for (const a of await allAnnouncements(db)) {
      const audience = a.audience === 'team' ? `team ${a.enterprise_id}` : a.audience === 'role' ? a.role : 'all';
      out(
        [
          a.id,
          a.announcement_type,
          a.display_mode,
          audience,
          a.delivered,
          a.read,
          a.expires_at ?? '-',
          a.withdrawn_at ?? '-',
          a.text.replace(/\s+/g, ' ').slice(0, 60),
        ].join('\t'),
      );
    }
  } else if (positionals[0] === 'notice' && positionals[1] === 'withdraw') {
    const id = Number(positionals[2]);
    if (!Number.isInteger(id) || id <= 0) throw new UsageError('notice withdraw takes an announcement ID');
    try {
      await withdrawAnnouncement(db, id);
    } catch (error) {
      if (error instanceof AppError) throw new UsageError(renderMessage(error.msgCode, error.msgParams));
      throw error;
    }
    out(`announcement ${id} withdrawn`);
  } else if (command === 'jobs list') {
    const queue = await queueOverview(db);
    for (const c of queue.counts) out(`${c.kind}\t${c.state}\t${c.count}`);
    out(`oldest queued: ${queue.oldestQueuedAt ?? '-'}`);
    const line = (j: JobRecord) =>
      [j.id, j.kind, j.ref, j.uid, j.state, `${j.progress}%`, j.attempts, j.owner ?? j.error_code ?? '-'].join('\t');
    out('running:');
    for (const j of queue.running) out(line(j));
    out('failures:');
    for (const j of queue.failures) out(line(j));
  } else if (positionals[0] === 'jobs' && (positionals[1] === 'retry' || positionals[1] === 'cancel')) {
    const id = Number(positionals[2]);
    if (!Number.isInteger(id) || id <= 0)
      throw new UsageError(`jobs ${positionals[1]} takes a job ID (see: admin jobs list)`);
    const job = await findJobById(db, id);
    const handler = job && jobHandlers[job.kind];
    if (!job || !handler) throw new UsageError(`no job ${id}`);
    if (positionals[1] === 'retry') {
      if (!(await reopenJob(db, id))) throw new UsageError(renderMessage('job.not_ended'));
      out(`job ${id} queued again`);
    } else {
      if (!(await endStoredJob(db, handler, job, 'cancelled', { code: kindMessage(job.kind, 'cancelled') }))) {
        throw new UsageError(renderMessage('job.not_running'));
      }
      out(`job ${id} cancelled`);
    }
  } else if (command === 'rules show') {
    out((await currentRules(db)).text);
  } else if (command === 'rules set') {
    if (!values.file) throw new UsageError('rules set takes --file RULES.txt');
    const text = readFileSync(values.file, 'utf8');
    if (!text.trim() || text.length > RULES_MAX) throw new UsageError(`the rules take 1 to ${RULES_MAX} characters`);
    await setRules(db, text);
    out(`rules: ${text.trim().length} characters`);
  } else if (command === 'rules reset') {
    await resetRules(db);
    out('rules: the built-in ones');
  } else if (command === 'guide reset') {
    await resetGuide(db);
    out(`guide: the built-in one (${DEFAULT_GUIDE_VERSION})`);
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
    await runAdmin(process.argv.slice(2), db, (line) => console.log(line), config);
  } catch (err) {
    console.error(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}
