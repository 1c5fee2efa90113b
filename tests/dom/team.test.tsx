import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './helpers';
import { parseLeaderLines } from '../../src/ui/screens/team/LeadersTab';

afterEach(cleanup);

const ok = (result: unknown) => Response.json({ code: 200, msg: 'success', result });
const TEAM = {
  enterprise_id: 7,
  name: '晨报编辑部',
  address: '',
  user_num: 3,
  equity_num: 20,
  equity_time: null,
  role: 'user',
};

describe('/team for a user in no team', () => {
  it('lists the invitation, joins on 加入, then shows the team with the tabs a member may open', async () => {
    let joined = false;
    const app = renderApp({
      path: '/team',
      handlers: {
        'GET /enterprise/v1/get_user_info': () => ok(joined ? TEAM : null),
        'GET /enterprise/user/v1/get_enterprise_invitation': () =>
          ok(
            joined
              ? []
              : [
                  {
                    id: 41,
                    enterprise_id: 7,
                    enterprise_name: '晨报编辑部',
                    inviter_name: '陈主编',
                    created_at: '2026-11-27T02:00:00Z',
                  },
                ],
          ),
        'GET /enterprise/user/v1/get_apply_enterprise_info': () => ok(null),
        'POST /enterprise/v1/pass_apply_or_invite': () => {
          joined = true;
          return ok(null);
        },
        'GET /enterprise/v1/get_user_auth': () =>
          ok({
            role: 'user',
            permissions: ['team.view', 'dictionaries.read', 'dictionaries.use', 'leader.read'],
            acts_on: [],
            grantable: [],
          }),
        'GET /enterprise/v1/get_share_dictionary_list': () => ok([]),
        'GET /enterprise-dic/leader/list': () => ok({ list: [], total: 0, num: 1, size: 2000 }),
        'GET /enterprise-dic/leader/history': () => ok({ list: [], total: 0, num: 1, size: 50 }),
      },
    });
    const invitation = await screen.findByTestId('team-invitation');
    expect(invitation.textContent).toContain('陈主编 邀请您加入');
    fireEvent.click(within(invitation).getByRole('button', { name: '加入' }));
    expect((await screen.findByTestId('team-name')).textContent).toBe('晨报编辑部');
    expect(app.server.bodyOf('POST /enterprise/v1/pass_apply_or_invite')).toEqual([{ id: 41, pass: true }]);
    expect(screen.getByTestId('team-role').textContent).toBe('普通成员');
    // a plain member sees the dictionaries and the leaders, not the members, rights or metrics
    await waitFor(() => expect(screen.getByTestId('team-tab-dictionaries')).toBeTruthy());
    expect(screen.getByTestId('team-tab-leaders')).toBeTruthy();
    expect(screen.queryByTestId('team-tab-members')).toBeNull();
    expect(screen.queryByTestId('team-tab-metrics')).toBeNull();
    expect(await screen.findByTestId('team-dictionaries-empty')).toBeTruthy();
  });

  it('looks a team up by its code before applying', async () => {
    const app = renderApp({
      path: '/team',
      handlers: {
        'GET /enterprise/v1/get_user_info': () => ok(null),
        'GET /enterprise/user/v1/get_enterprise_invitation': () => ok([]),
        'GET /enterprise/user/v1/get_apply_enterprise_info': (req) =>
          ok(
            req.search.includes('invitation_code')
              ? { enterprise_id: 7, name: '晨报编辑部', status: null, user_num: 3 }
              : null,
          ),
        'POST /enterprise/user/v1/apply_join_enterprise': () => ok({ id: 52 }),
      },
    });
    fireEvent.change(await screen.findByTestId('team-code'), { target: { value: 'Xy3kP9aQ' } });
    fireEvent.click(screen.getByRole('button', { name: '查找团队' }));
    expect((await screen.findByTestId('team-found')).textContent).toContain('晨报编辑部');
    fireEvent.click(screen.getByRole('button', { name: '申请加入' }));
    await waitFor(() =>
      expect(app.server.bodyOf('POST /enterprise/user/v1/apply_join_enterprise')).toEqual([
        { invitation_code: 'Xy3kP9aQ' },
      ]),
    );
  });
});

describe('leader batch import lines', () => {
  it('reads name, titles and organisation; reports lines it cannot read', () => {
    expect(parseLeaderLines('王建国 市委书记\n\n李红梅\t市长、市委副书记\t市政府\n张')).toEqual({
      items: [
        { name: '王建国', titles: ['市委书记'] },
        { name: '李红梅', titles: ['市长', '市委副书记'], organization: '市政府' },
      ],
      bad: [4],
    });
  });
});
