// Teams in Chromium against the real server: a user applies for a team, an operator approves it (admin CLI), the
// root invites a second user by phone, who sees the invitation live and joins; the root allocates 10,000
// characters and adds leaders; the member's check flags a leader's wrong title (12-1); the root's metrics show
// the member's check. Two browser contexts, one per person.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminCli,
  openBrowser,
  registerInBrowser,
  runHomeCheck,
  screenshotLightAndDark,
  uniquePhone,
  type BrowserSession,
} from './browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const PASSWORD = 'e2e-team-123';
const rootPhone = uniquePhone().replace(/^139/, '135');
const memberPhone = uniquePhone().replace(/^139/, '134');
const TEAM = `晨报编辑部${rootPhone.slice(-4)}`;

let root: BrowserSession;
let member: BrowserSession;
let teamId = 0;

beforeAll(async () => {
  root = await openBrowser();
  member = await openBrowser();
  await registerInBrowser(root.page, baseUrl, dataDir, rootPhone, PASSWORD);
  await registerInBrowser(member.page, baseUrl, dataDir, memberPhone, PASSWORD);
}, 90_000);

afterAll(async () => {
  await root?.close();
  await member?.close();
});

describe('a team in Chromium', () => {
  it('applies on /teamApply; an operator approves; the applicant is the root of the new team', async () => {
    const { page } = root;
    await page.goto(`${baseUrl}/workbench/teamApply`);
    await page.getByTestId('team-apply-name').fill(TEAM);
    await page.getByTestId('team-apply-contact').fill('陈主编');
    await page.getByTestId('team-apply-submit').click();
    await page.getByTestId('team-apply-done').waitFor();
    const pending = await adminCli(dataDir, 'application', 'list', '--status', 'pending');
    const line = pending.find((l) => l.includes(TEAM));
    expect(line).toBeDefined();
    const approved = await adminCli(dataDir, 'application', 'approve', line!.split('\t')[0]);
    teamId = Number(/created team (\d+)/.exec(approved[0])![1]);
    await page.goto(`${baseUrl}/workbench/team`);
    await expect.poll(() => page.getByTestId('team-name').textContent()).toBe(TEAM);
    expect(await page.getByTestId('team-role').textContent()).toBe('超级管理员');
    // the side bar lists 我的团队 now that the user is in a team
    await expect.poll(() => page.getByTestId('side-bar').getByRole('link', { name: '我的团队' }).count()).toBe(1);
  });

  it('the root invites by phone; the member sees it live, joins, and the root sees the member', async () => {
    await member.page.goto(`${baseUrl}/workbench/`);
    await member.page.getByTestId('home-screen').waitFor();
    // an account in no team sees no 我的团队 in the side bar
    expect(await member.page.getByTestId('side-bar').getByRole('link', { name: '我的团队' }).count()).toBe(0);
    const { page } = root;
    await page.getByTestId('team-invite-phones').fill(memberPhone);
    await page.getByTestId('team-invite-submit').click();
    await expect.poll(() => page.getByTestId('team-invite-result').textContent()).toContain('已发出 1 份邀请');
    // live, over the socket: a toast on whatever screen the member is on
    await member.page.getByText(`邀请您加入团队「${TEAM}」`).waitFor({ timeout: 15_000 });
    await member.page.goto(`${baseUrl}/workbench/team`);
    await member.page.getByTestId('team-invitation').getByRole('button', { name: '加入' }).click();
    await expect.poll(() => member.page.getByTestId('team-name').textContent()).toBe(TEAM);
    expect(await member.page.getByTestId('team-role').textContent()).toBe('普通成员');
    await page.reload();
    // the list reads after the lazy screen and tab load: wait for its second row, then compare
    await page.getByTestId('team-member-row').nth(1).waitFor();
    await expect
      .poll(() =>
        page.getByTestId('team-member-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))),
      )
      .toEqual(['1', '1']);
    // the root names the member in the team (Enter saves)
    const memberRow = page.getByTestId('team-member-row').filter({ hasText: `${memberPhone.slice(0, 3)}****` });
    await memberRow.getByTestId('member-rename').click();
    await page.getByTestId('member-rename-input').fill('小周');
    await page.getByTestId('member-rename-input').press('Enter');
    await page.getByTestId('team-member-row').filter({ hasText: '小周' }).waitFor();
    // the team's code for applications is replaced after a confirm
    const code = page.getByTestId('team-invitation-code');
    const before = await code.textContent();
    await page.getByTestId('team-renew-code').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确认' }).click();
    await expect.poll(() => code.textContent()).not.toBe(before);
    expect(await code.textContent()).toMatch(/^[\w-]{8,}$/);
    await screenshotLightAndDark(page, 'team-members');
  });

  it('the root allocates 10,000 characters and adds leaders; the member sees a wrong title (12-1)', async () => {
    await adminCli(dataDir, 'team', 'grant', '--team', String(teamId), '--product', 'team_yearly');
    const { page } = root;
    await page.getByTestId('team-tab-rights').click();
    await page.getByTestId('team-package').waitFor();
    await page.getByTestId('allocate-package').selectOption({ index: 1 });
    await page.getByTestId('allocate-type').selectOption('1');
    const masked = `${memberPhone.slice(0, 3)}****${memberPhone.slice(-4)}`;
    await page.getByTestId('allocate-member').selectOption({ label: `小周（${masked}）` });
    await page.getByTestId('allocate-amount').fill('10000');
    await page.getByTestId('allocate-submit').click();
    await page.getByTestId('team-allocations').waitFor();
    expect(await page.getByTestId('team-allocations').textContent()).toContain('10,000');

    await page.getByTestId('team-tab-leaders').click();
    for (const [name, titles] of [
      ['王建国', '市委书记'],
      ['李红梅', '市长'],
    ]) {
      await page.getByTestId('leader-name').fill(name);
      await page.getByTestId('leader-titles').fill(titles);
      await page.getByTestId('leader-save').click();
      await page.getByTestId('team-leader-row').filter({ hasText: name }).waitFor();
    }

    // a shared dictionary with a wrong word; the member turns it on for their own checks
    await page.getByTestId('team-tab-dictionaries').click();
    await page.getByTestId('shared-dict-name').fill('编辑部词库');
    await page.getByTestId('shared-dict-name').press('Enter');
    await page.getByTestId('shared-dict-words').waitFor();
    await page.getByTestId('dict-add-word').fill('阿里爸爸');
    await page.getByTestId('dict-add-correct').fill('阿里巴巴');
    await page.getByTestId('dict-add-submit').click();
    await page.getByTestId('shared-word-row').filter({ hasText: '阿里爸爸' }).waitFor();

    const m = member.page;
    await m.goto(`${baseUrl}/workbench/team`);
    await m.getByTestId('team-tab-dictionaries').click();
    const toggle = m.getByTestId('shared-dict-row').filter({ hasText: '编辑部词库' }).getByTestId('shared-dict-toggle');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    // a plain member reads the team's words but cannot change them
    expect(await m.getByTestId('shared-dict-name').count()).toBe(0);

    await m.goto(`${baseUrl}/workbench/`);
    const editor = m.getByTestId('proofread-editor');
    await editor.fill('市长王建国出席了今天的开幕式，与阿里爸爸签约。');
    await runHomeCheck(m);
    const finding = m
      .getByTestId('finding-item')
      .filter({ has: m.locator('[data-testid="finding-original"]', { hasText: /^市长$/ }) });
    await expect.poll(() => finding.getByTestId('finding-suggestion').first().textContent()).toBe('市委书记');
    const shared = m
      .getByTestId('finding-item')
      .filter({ has: m.locator('[data-testid="finding-original"]', { hasText: /^阿里爸爸$/ }) });
    await expect.poll(() => shared.getByTestId('finding-suggestion').first().textContent()).toBe('阿里巴巴');
  });

  it("the root's metrics show the member's check", async () => {
    const { page } = root;
    await page.getByTestId('team-tab-metrics').click();
    await expect.poll(() => page.getByTestId('metric-checks').textContent(), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('metric-member-row').count()).toBe(1);
    await page.getByTestId('metric-chart').locator('canvas').waitFor();
    await screenshotLightAndDark(page, 'team-metrics');
  });
});
