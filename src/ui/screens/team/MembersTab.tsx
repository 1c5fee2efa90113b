// The members tab of /team: the team's members, invitations and applications, with search and a status filter;
// inviting phones, answering applications, giving roles, suspending, restoring and removing members, handing the
// team over (root). What each button may do is checked again by the server; the buttons follow the caller's role.
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  Field,
  Flex,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Pencil, RefreshCw, UserPlus, Users } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { liveTeamMembers } from '../../../machines/live-team';
import { inspectOptions } from '../../../machines/inspect';
import { MEMBER_PAGE_SIZE, type MemberChange, type TeamMembersEvent } from '../../../machines/teamMembers';
import { teamDetails, type Member, type TeamRole } from '../../../machines/teamCalls';
import { userInfoQuery } from '../../../api/queries';
import { ListPagination } from '../../layout/ListPagination';
import { EmptyPanel } from '../../layout/EmptyPanel';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { translateNotice } from '../../notices';
import { reasonText, ROLE_LABELS, STATUS_LABELS, STATUS_PALETTE, toStatus, toTeamRole } from './labels';
import { useTeamAuth } from './useTeamAuth';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const PHONE = /^1\d{10}$/;

export default function MembersTab() {
  const { t, i18n } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(() => liveTeamMembers({ socket: () => systemActor(app.system, 'socket') }), [app]);
  const actor = useActorRef(logic, inspectOptions());
  const send = (event: TeamMembersEvent) => actor.send(event);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busy = useSelector(actor, (s) => !s.matches('ready') || !s.matches({ ready: 'idle' }));
  const context = useSelector(actor, (s) => s.context);
  const auth = useTeamAuth();
  const details = useQuery({ queryKey: ['enterprise', 'details'], queryFn: () => teamDetails() });
  const role = auth.role ?? 'user';
  const canInvite = auth.can('members.invite');
  const canRole = auth.can('roles.change');
  const [keyword, setKeyword] = useState('');
  // what a confirmed dialog sends
  const [confirm, setConfirm] = useState<{ event: TeamMembersEvent; title: string; description: string } | null>(null);
  const me = useQuery(userInfoQuery({ silent: true }));
  const canStatus = auth.can('members.status');
  // the name in the team: one's own, or (members.status) a member one may act on
  const [renaming, setRenaming] = useState<{ uid: number; name: string } | null>(null);
  const renamable = (m: Member) =>
    m.uid !== null &&
    (m.status === 1 || m.status === 2 || m.status === 3) &&
    (m.uid === me.data?.uid || (canStatus && actable(m)));

  const change = (c: MemberChange) => send({ type: 'change', change: c });
  const actable = (m: Member) => m.uid !== null && auth.actsOn.includes(m.role);

  return (
    <Stack gap="4" data-testid="team-members">
      {canInvite ? (
        <InviteForm
          busy={busy}
          grantable={auth.grantable}
          onInvite={(phones, r) => send({ type: 'invite', phones, role: r })}
          code={context.code ?? details.data?.invitation_code}
          onRenewCode={() =>
            setConfirm({
              event: { type: 'renew code' },
              title: t`换一个团队邀请码？`,
              description: t`旧的邀请码立即失效，已经提交的申请仍可审核。`,
            })
          }
        />
      ) : null}
      {context.invited || context.failed.length ? (
        <Alert.Root status={context.failed.length ? 'warning' : 'success'} data-testid="team-invite-result">
          <Alert.Indicator />
          <Stack gap="1">
            <Alert.Title>
              <Trans>已发出 {context.invited} 份邀请</Trans>
            </Alert.Title>
            {context.failed.map((f) => (
              <Alert.Description key={f.phone}>
                {f.phone}：{reasonText(i18n, f.reason)}
              </Alert.Description>
            ))}
          </Stack>
        </Alert.Root>
      ) : null}
      {context.error ? (
        <Alert.Root status="error" data-testid="team-members-error">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, context.error)}</Alert.Title>
        </Alert.Root>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'search', keyword });
        }}
      >
        <HStack gap="2" wrap="wrap">
          <Input
            maxW="xs"
            size="sm"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            placeholder={t`搜索姓名或手机号`}
            aria-label={t`搜索成员`}
          />
          <Button size="sm" type="submit" variant="outline">
            <Trans>搜索</Trans>
          </Button>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field
              aria-label={t`按状态筛选`}
              value={context.status ?? ''}
              onChange={(e) => send({ type: 'filter', status: toStatus(e.target.value) })}
            >
              <option value="">{t`全部状态`}</option>
              {Object.entries(STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {i18n._(label)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
      </form>
      {failed ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{context.error ? translateNotice(i18n, context.error) : t`无法加载成员列表`}</Alert.Title>
          <Button size="xs" variant="outline" ms="auto" onClick={() => send({ type: 'retry' })}>
            <Trans>重试</Trans>
          </Button>
        </Alert.Root>
      ) : loading && context.page.list.length === 0 ? (
        <Stack gap="2" aria-busy>
          <Skeleton h="10" />
          <Skeleton h="10" />
        </Stack>
      ) : context.page.total === 0 ? (
        <EmptyPanel testId="team-members-empty" icon={<Users />} title={<Trans>没有符合条件的成员</Trans>} />
      ) : (
        <>
          <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto" aria-busy={loading}>
            <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`团队成员`} whiteSpace="nowrap">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>
                    <Trans>姓名</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>手机号</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>角色</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>状态</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>加入时间</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>最近使用</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">
                    <Trans>操作</Trans>
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {context.page.list.map((m) => {
                  const when = (iso: string | null | undefined) =>
                    iso ? i18n.date(new Date(iso), { dateStyle: 'medium' }) : '—';
                  const holding = m.status === 1 || m.status === 2 || m.status === 3;
                  return (
                    <Table.Row key={m.id} data-testid="team-member-row" data-status={m.status}>
                      <Table.Cell data-label={t`姓名`}>
                        {renaming && renaming.uid === m.uid ? (
                          <Input
                            size="xs"
                            autoFocus
                            maxLength={50}
                            value={renaming.name}
                            aria-label={t`${m.name} 在团队中的名字`}
                            data-testid="member-rename-input"
                            onChange={(e) => setRenaming({ uid: renaming.uid, name: e.target.value })}
                            onKeyDown={(e) => {
                              if (e.key === 'Escape') setRenaming(null);
                              if (e.key === 'Enter' && renaming.name.trim()) {
                                change({ kind: 'rename', uid: renaming.uid, name: renaming.name.trim() });
                                setRenaming(null);
                              }
                            }}
                            onBlur={() => setRenaming(null)}
                          />
                        ) : (
                          <HStack gap="1">
                            <Text>
                              <Verbatim>{m.name}</Verbatim>
                            </Text>
                            {renamable(m) ? (
                              <IconButton
                                size="2xs"
                                variant="ghost"
                                aria-label={t`修改 ${m.name} 的名字`}
                                onClick={() => setRenaming({ uid: m.uid!, name: m.name })}
                                data-testid="member-rename"
                              >
                                <Pencil size={12} />
                              </IconButton>
                            ) : null}
                          </HStack>
                        )}
                      </Table.Cell>
                      <Table.Cell data-label={t`手机号`} whiteSpace="nowrap">
                        {m.phone}
                      </Table.Cell>
                      <Table.Cell data-label={t`角色`}>
                        {canRole && holding && actable(m) ? (
                          <NativeSelect.Root size="xs" width="auto" disabled={busy}>
                            <NativeSelect.Field
                              aria-label={t`${m.name} 的角色`}
                              value={m.role}
                              onChange={(e) => change({ kind: 'role', uid: m.uid!, role: toTeamRole(e.target.value) })}
                            >
                              {[...new Set<string>([...auth.grantable, m.role])].map((r) => (
                                <option key={r} value={r}>
                                  {i18n._(ROLE_LABELS[r])}
                                </option>
                              ))}
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        ) : (
                          i18n._(ROLE_LABELS[m.role] ?? ROLE_LABELS.user)
                        )}
                      </Table.Cell>
                      <Table.Cell data-label={t`状态`}>
                        <Badge colorPalette={STATUS_PALETTE[m.status]}>{i18n._(STATUS_LABELS[m.status])}</Badge>
                      </Table.Cell>
                      <Table.Cell data-label={t`加入时间`} whiteSpace="nowrap">
                        {when(m.joined_at)}
                      </Table.Cell>
                      <Table.Cell data-label={t`最近使用`} whiteSpace="nowrap">
                        {when(m.last_active_at)}
                      </Table.Cell>
                      <Table.Cell data-label={t`操作`} textAlign="end">
                        <HStack gap="1" justify="flex-end">
                          {m.status === 4 && canInvite ? (
                            <Button
                              size="xs"
                              variant="ghost"
                              disabled={busy}
                              onClick={() => change({ kind: 'withdraw', id: m.id })}
                              data-testid="member-withdraw"
                            >
                              <Trans>撤回</Trans>
                            </Button>
                          ) : null}
                          {m.status === 6 ? (
                            <>
                              <Button
                                size="xs"
                                colorPalette="blue"
                                disabled={busy}
                                onClick={() => send({ type: 'answer', id: m.id, pass: true })}
                              >
                                <Trans>同意</Trans>
                              </Button>
                              <Button
                                size="xs"
                                variant="outline"
                                disabled={busy}
                                onClick={() => send({ type: 'answer', id: m.id, pass: false })}
                              >
                                <Trans>拒绝</Trans>
                              </Button>
                            </>
                          ) : null}
                          {holding && actable(m) ? (
                            <>
                              <Button
                                size="xs"
                                variant="ghost"
                                disabled={busy}
                                onClick={() => change({ kind: 'status', uid: m.uid!, status: m.status === 1 ? 3 : 1 })}
                              >
                                {m.status === 1 ? <Trans>停用</Trans> : <Trans>恢复</Trans>}
                              </Button>
                              <Button
                                size="xs"
                                variant="ghost"
                                colorPalette="red"
                                disabled={busy}
                                onClick={() =>
                                  setConfirm({
                                    event: { type: 'change', change: { kind: 'remove', uid: m.uid! } },
                                    title: t`将 ${m.name} 移出团队？`,
                                    description: t`移出后对方不能再使用团队的词库，已分配但未用完的权益会退回团队。`,
                                  })
                                }
                              >
                                <Trans>移除</Trans>
                              </Button>
                              {role === 'root' && m.status === 1 ? (
                                <Button
                                  size="xs"
                                  variant="ghost"
                                  disabled={busy}
                                  onClick={() =>
                                    setConfirm({
                                      event: { type: 'change', change: { kind: 'transfer', uid: m.uid! } },
                                      title: t`把团队转让给 ${m.name}？`,
                                      description: t`转让后对方成为超级管理员，您成为管理员。`,
                                    })
                                  }
                                >
                                  <Trans>转让</Trans>
                                </Button>
                              ) : null}
                            </>
                          ) : null}
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Box>
          <ListPagination
            total={context.page.total}
            size={MEMBER_PAGE_SIZE}
            page={context.num}
            onPage={(num) => send({ type: 'page', num })}
          />
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        destructive
        title={confirm?.title}
        description={confirm?.description}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) send(confirm.event);
          setConfirm(null);
        }}
      />
    </Stack>
  );
}

function InviteForm(props: {
  busy: boolean;
  grantable: readonly TeamRole[];
  code: string | undefined;
  onInvite: (phones: string[], role: TeamRole) => void;
  onRenewCode: () => void;
}) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  const [role, setRole] = useState<TeamRole>('user');
  const phones = [...new Set(text.split(/[\s,，;；、]+/).filter(Boolean))];
  const bad = phones.filter((p) => !PHONE.test(p));
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!phones.length || bad.length) return;
          props.onInvite(phones, role);
          setText('');
        }}
      >
        <Stack gap="3">
          <Field.Root invalid={bad.length > 0}>
            <Field.Label>
              <Trans>邀请成员（手机号，可一次输入多个）</Trans>
            </Field.Label>
            <Textarea
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={2}
              placeholder={t`例如 13800000001 13800000002`}
              data-testid="team-invite-phones"
            />
            {bad.length ? (
              <Field.ErrorText>
                <Trans>手机号格式不正确：{bad.join('、')}</Trans>
              </Field.ErrorText>
            ) : null}
          </Field.Root>
          <Flex gap="2" align="center" wrap="wrap">
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field
                aria-label={t`邀请的角色`}
                value={role}
                onChange={(e) => setRole(toTeamRole(e.target.value))}
              >
                {props.grantable.map((r) => (
                  <option key={r} value={r}>
                    {i18n._(ROLE_LABELS[r])}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Button
              type="submit"
              size="sm"
              colorPalette="blue"
              loading={props.busy}
              disabled={!phones.length || bad.length > 0 || phones.length > 100}
              data-testid="team-invite-submit"
            >
              <UserPlus size={14} aria-hidden />
              <Trans>发送邀请</Trans>
            </Button>
            {props.code ? (
              <HStack gap="1" ms="auto">
                <Text fontSize="sm" color="fg.muted">
                  <Trans>
                    团队邀请码：<Code data-testid="team-invitation-code">{props.code}</Code>
                  </Trans>
                </Text>
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={t`换一个邀请码`}
                  title={t`换一个邀请码`}
                  disabled={props.busy}
                  onClick={props.onRenewCode}
                  data-testid="team-renew-code"
                >
                  <RefreshCw size={14} aria-hidden />
                </IconButton>
              </HStack>
            ) : null}
          </Flex>
        </Stack>
      </form>
    </Box>
  );
}
