// My team (route /team): outside a team, the invitations received (accept / refuse), joining a team by its code,
// and the way to apply for a team of one's own; in a team, the team's card and the tabs the member's role allows
// (members, shared dictionaries, leaders, rights, metrics). The flow is the membership machine; each tab owns its own.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  Skeleton,
  Stack,
  Tabs,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Users } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { AppActorContext } from '../../app-actor';
import { systemActor } from '../../../machines/system';
import { liveMembership } from '../../../machines/live-team';
import { inspectOptions } from '../../../machines/inspect';
import { standing, type MembershipEvent } from '../../../machines/membership';
import { type TeamInfo } from '../../../machines/teamCalls';
import { queryKeys } from '../../../api/queries';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { translateNotice } from '../../notices';
import { PageSpinner } from '../../layout/MainLayout';
import { ROLE_LABELS } from './labels';
import { useTeamAuth } from './useTeamAuth';
import { Verbatim } from '../../layout/Verbatim';

const MembersTab = lazy(() => import('./MembersTab'));
const LeadersTab = lazy(() => import('./LeadersTab'));
const DictionariesTab = lazy(() => import('./DictionariesTab'));
const RightsTab = lazy(() => import('./RightsTab'));
const MetricsTab = lazy(() => import('./MetricsTab'));

export default function Team() {
  const { t, i18n } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(() => liveMembership({ socket: () => systemActor(app.system, 'socket') }), [app]);
  const actor = useActorRef(logic, inspectOptions());
  const send = (event: MembershipEvent) => actor.send(event);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busy = useSelector(actor, (s) => !s.matches({ ready: 'idle' }));
  const context = useSelector(actor, (s) => s.context);
  const queryClient = useQueryClient();
  // the side bar and the user menu read the user's team from the user info
  const teamId = context.team?.enterprise_id ?? null;
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    void queryClient.invalidateQueries({ queryKey: queryKeys.invitations });
  }, [teamId, queryClient]);

  if (loading) return <PageSpinner />;
  if (failed)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{context.error ? translateNotice(i18n, context.error) : t`无法加载团队信息`}</Alert.Title>
        <Button size="xs" variant="outline" ms="auto" onClick={() => send({ type: 'retry' })}>
          <Trans>重试</Trans>
        </Button>
      </Alert.Root>
    );
  const error = context.error ? (
    <Alert.Root status="error" data-testid="team-error">
      <Alert.Indicator />
      <Alert.Title>{translateNotice(i18n, context.error)}</Alert.Title>
    </Alert.Root>
  ) : null;
  if (context.team)
    return (
      <Stack gap="4" data-testid="team-screen">
        {error}
        <TeamCard team={context.team} busy={busy} onQuit={() => send({ type: 'quit' })} />
        <TeamTabs />
      </Stack>
    );
  return (
    <Stack gap="4" maxW="3xl" data-testid="team-screen">
      {error}
      <NoTeam
        state={standing(context)}
        invitations={context.invitations}
        application={context.application}
        found={context.found}
        lookedUp={context.code}
        busy={busy}
        send={send}
      />
    </Stack>
  );
}

function TeamCard({ team, busy, onQuit }: { team: TeamInfo; busy: boolean; onQuit: () => void }) {
  const { t, i18n } = useLingui();
  const [confirming, setConfirming] = useState(false);
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p="5" data-testid="team-card">
      <Flex gap="4" align="center" wrap="wrap">
        <Flex boxSize="12" borderRadius="lg" bg="blue.subtle" color="blue.fg" align="center" justify="center">
          <Users aria-hidden />
        </Flex>
        <Stack gap="1" flex="1" minW="48">
          <Heading as="h2" size="md" data-testid="team-name">
            <Verbatim>{team.name}</Verbatim>
          </Heading>
          <HStack gap="3" color="fg.muted" fontSize="sm" wrap="wrap">
            <Badge colorPalette="blue" data-testid="team-role">
              {i18n._(ROLE_LABELS[team.role] ?? ROLE_LABELS.user)}
            </Badge>
            <Text>
              {team.equity_num > 0 ? (
                <Trans>
                  成员 {team.user_num} / {team.equity_num} 人
                </Trans>
              ) : (
                <Trans>成员 {team.user_num} 人</Trans>
              )}
            </Text>
            {team.equity_time ? (
              <Text>
                <Trans>权益有效期至 {i18n.date(new Date(team.equity_time), { dateStyle: 'medium' })}</Trans>
              </Text>
            ) : null}
          </HStack>
        </Stack>
        {team.role !== 'root' ? (
          <Button size="sm" variant="outline" colorPalette="red" loading={busy} onClick={() => setConfirming(true)}>
            <Trans>退出团队</Trans>
          </Button>
        ) : null}
      </Flex>
      <ConfirmDialog
        open={confirming}
        destructive
        title={t`退出团队「${team.name}」？`}
        description={t`退出后将不能再使用团队的共享词库和领导人词库，团队分配给您但未用完的权益会退回团队。`}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onQuit();
        }}
      />
    </Box>
  );
}

function TeamTabs() {
  const { t } = useLingui();
  const auth = useTeamAuth();
  const tabs = [
    { value: 'members', label: t`成员`, allowed: auth.can('members.view'), view: <MembersTab /> },
    {
      value: 'dictionaries',
      label: t`共享词库`,
      allowed: auth.can('dictionaries.read'),
      view: <DictionariesTab />,
    },
    { value: 'leaders', label: t`领导人词库`, allowed: auth.can('leader.read'), view: <LeadersTab /> },
    { value: 'rights', label: t`团队权益`, allowed: auth.can('rights.view'), view: <RightsTab /> },
    { value: 'metrics', label: t`使用数据`, allowed: auth.can('metrics.view'), view: <MetricsTab /> },
  ].filter((tab) => tab.allowed);
  if (auth.pending) return <Skeleton h="40" />;
  if (!tabs.length) return null;
  return (
    <Tabs.Root defaultValue={tabs[0].value} variant="line" lazyMount unmountOnExit={false}>
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.value} value={tab.value} data-testid={`team-tab-${tab.value}`}>
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Content key={tab.value} value={tab.value}>
          <Suspense fallback={<PageSpinner />}>{tab.view}</Suspense>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

function NoTeam(props: {
  state: ReturnType<typeof standing>;
  invitations: Array<{ id: number; enterprise_name: string; inviter_name: string; created_at: string }>;
  application: { name: string; status: number | null } | null;
  found: { name: string; admin_name?: string; user_num?: number } | null;
  /** the code the found team belongs to */
  lookedUp: string;
  busy: boolean;
  send: (event: MembershipEvent) => void;
}) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const validCode = /^[A-Za-z0-9_-]{4,64}$/.test(code.trim());
  return (
    <>
      {props.invitations.length ? (
        <Stack gap="3" data-testid="team-invitations">
          <Heading as="h2" size="sm">
            <Trans>收到的团队邀请</Trans>
          </Heading>
          {props.invitations.map((inv) => (
            <Box key={inv.id} bg="panel" borderWidth="1px" borderRadius="xl" p="4" data-testid="team-invitation">
              <Flex gap="3" align="center" wrap="wrap">
                <Stack gap="0.5" flex="1" minW="48">
                  <Text fontWeight="semibold">{inv.enterprise_name}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    <Trans>
                      {inv.inviter_name} 邀请您加入 · {i18n.date(new Date(inv.created_at), { dateStyle: 'medium' })}
                    </Trans>
                  </Text>
                </Stack>
                <Button
                  size="sm"
                  colorPalette="blue"
                  loading={props.busy}
                  onClick={() => props.send({ type: 'accept', id: inv.id })}
                >
                  <Trans>加入</Trans>
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={props.busy}
                  onClick={() => props.send({ type: 'refuse', id: inv.id })}
                >
                  <Trans>拒绝</Trans>
                </Button>
              </Flex>
            </Box>
          ))}
        </Stack>
      ) : null}

      {props.state === 'applied' && props.application ? (
        <Alert.Root status="info" data-testid="team-applied">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>已申请加入「{props.application.name}」，等待团队管理员审核。</Trans>
          </Alert.Title>
          <Button size="xs" variant="outline" ms="auto" onClick={() => props.send({ type: 'reload' })}>
            <Trans>刷新</Trans>
          </Button>
        </Alert.Root>
      ) : props.application?.status === 7 ? (
        <Alert.Root status="warning" data-testid="team-refused">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>「{props.application.name}」没有通过您的加入申请。</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : null}

      {props.state === 'none' || props.state === 'invited' ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" p="6">
          {props.state === 'none' ? (
            <EmptyState.Root size="sm" mb="4">
              <EmptyState.Content>
                <EmptyState.Indicator>
                  <Users />
                </EmptyState.Indicator>
                <VStack textAlign="center">
                  <EmptyState.Title as="h2">
                    <Trans>您还没有加入团队</Trans>
                  </EmptyState.Title>
                  <EmptyState.Description>
                    <Trans>输入团队管理员给您的团队邀请码申请加入，或为您的单位申请开通团队版。</Trans>
                  </EmptyState.Description>
                </VStack>
              </EmptyState.Content>
            </EmptyState.Root>
          ) : null}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!validCode) return;
              if (props.found && code.trim() === props.lookedUp) props.send({ type: 'apply', code, name });
              else props.send({ type: 'look up', code });
            }}
          >
            <Stack gap="3">
              <Field.Root>
                <Field.Label>
                  <Trans>团队邀请码</Trans>
                </Field.Label>
                <Input
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  placeholder={t`例如 Xy3kP9aQ`}
                  data-testid="team-code"
                  maxLength={64}
                />
              </Field.Root>
              {props.found && code.trim() === props.lookedUp ? (
                <>
                  <Text data-testid="team-found">
                    <Trans>
                      团队：{props.found.name}（{props.found.user_num ?? 0} 人）
                    </Trans>
                  </Text>
                  <Field.Root>
                    <Field.Label>
                      <Trans>您在团队中的名字（选填）</Trans>
                    </Field.Label>
                    <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={50} />
                  </Field.Root>
                </>
              ) : null}
              <HStack>
                <Button type="submit" colorPalette="blue" disabled={!validCode} loading={props.busy}>
                  {props.found && code.trim() === props.lookedUp ? <Trans>申请加入</Trans> : <Trans>查找团队</Trans>}
                </Button>
                <Link href="/teamApply" asChild>
                  <Button as="a" variant="ghost">
                    <Trans>申请开通团队版</Trans>
                  </Button>
                </Link>
              </HStack>
            </Stack>
          </form>
        </Box>
      ) : null}
    </>
  );
}
