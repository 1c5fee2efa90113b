// The operators' announcements (shown on /user to accounts with role root): publish one (type, popup or notice
// list, audience, text, end), see whom each reached and who read it, withdraw it. The admin CLI does the same
// (`admin notice …`).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Megaphone } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { operations } from '../../../../openapi/schema';
import { api, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { translateNotice } from '../../notices';
import { ANNOUNCEMENT_TITLES } from '../../layout/announcements';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

type PublishBody = operations['postAdminV1Announcements']['requestBody']['content']['application/json'];
const KEY = ['admin', 'announcements'] as const;
const TYPES = [0, 1, 2, 3, 4, 5] as const;
const ROLES = ['free', 'user', 'user_admin', 'dic_admin', 'admin', 'root'] as const;

export function AnnouncementsAdmin() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => unwrap(api.GET('/admin/v1/announcements')) });
  const [type, setType] = useState<(typeof TYPES)[number]>(0);
  const [mode, setMode] = useState<0 | 1>(1);
  const [audience, setAudience] = useState<PublishBody['audience']>('all');
  const [team, setTeam] = useState('');
  const [role, setRole] = useState<(typeof ROLES)[number]>('free');
  const [text, setText] = useState('');
  const [expires, setExpires] = useState('');
  const publish = useMutation({
    mutationFn: (body: PublishBody) => unwrap(api.POST('/admin/v1/announcements', { body })),
    onSuccess: async (result) => {
      setText('');
      notify({ status: 'success', title: t`公告已发布，已即时送达 ${result.delivered} 位在线用户` });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const withdraw = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/admin/v1/announcements/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const submit = () => {
    const body: PublishBody = {
      announcement_type: type,
      display_mode: mode,
      text: text.trim(),
      audience,
      ...(audience === 'team' ? { enterprise_id: Number(team) } : {}),
      ...(audience === 'role' ? { role } : {}),
      ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
    };
    publish.mutate(body);
  };
  const audienceText = (a: { audience: string; enterprise_id: number | null; role: string | null }) =>
    a.audience === 'team' ? t`团队 ${a.enterprise_id}` : a.audience === 'role' ? (a.role ?? '') : t`所有用户`;
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }} data-testid="announcements-admin">
      <Flex align="center" gap="2" mb="4">
        <Megaphone size={18} aria-hidden />
        <Heading as="h3" size="md">
          <Trans>发布公告</Trans>
        </Heading>
      </Flex>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) submit();
        }}
      >
        <Stack gap="3">
          <HStack gap="3" wrap="wrap">
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field
                aria-label={t`公告类型`}
                value={type}
                onChange={(e) => setType(TYPES.find((v) => v === Number(e.target.value)) ?? 0)}
                data-testid="announcement-type"
              >
                {TYPES.map((v) => (
                  <option key={v} value={v}>
                    {i18n._(ANNOUNCEMENT_TITLES[v])}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field
                aria-label={t`展示方式`}
                value={mode}
                onChange={(e) => setMode(e.target.value === '0' ? 0 : 1)}
                data-testid="announcement-mode"
              >
                <option value={1}>{t`弹窗，确认后关闭`}</option>
                <option value={0}>{t`通知列表`}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field
                aria-label={t`发送对象`}
                value={audience}
                onChange={(e) =>
                  setAudience(e.target.value === 'team' ? 'team' : e.target.value === 'role' ? 'role' : 'all')
                }
                data-testid="announcement-audience"
              >
                <option value="all">{t`所有用户`}</option>
                <option value="team">{t`一个团队`}</option>
                <option value="role">{t`一种角色`}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {audience === 'team' ? (
              <Input
                size="sm"
                w="32"
                inputMode="numeric"
                value={team}
                onChange={(e) => setTeam(e.target.value.replace(/\D/g, ''))}
                placeholder={t`团队编号`}
                aria-label={t`团队编号`}
              />
            ) : null}
            {audience === 'role' ? (
              <NativeSelect.Root size="sm" width="auto">
                <NativeSelect.Field
                  aria-label={t`角色`}
                  value={role}
                  onChange={(e) => setRole(ROLES.find((r) => r === e.target.value) ?? 'free')}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            ) : null}
          </HStack>
          <Textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={5000}
            placeholder={t`公告内容`}
            aria-label={t`公告内容`}
            data-testid="announcement-text"
          />
          <HStack gap="3" wrap="wrap">
            <Field.Root w="auto">
              <Field.Label fontSize="sm">
                <Trans>截止时间（可选；通知列表默认 3 天）</Trans>
              </Field.Label>
              <Input size="sm" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
            </Field.Root>
            <Box flex="1" />
            <Button
              type="submit"
              colorPalette="blue"
              size="sm"
              alignSelf="flex-end"
              loading={publish.isPending}
              disabled={!text.trim() || (audience === 'team' && !team)}
              data-testid="announcement-publish"
            >
              <Trans>发布</Trans>
            </Button>
          </HStack>
          {publish.error ? (
            <Alert.Root status="error" size="sm">
              <Alert.Indicator />
              <Alert.Title>{translateNotice(i18n, publish.error.message)}</Alert.Title>
            </Alert.Root>
          ) : null}
        </Stack>
      </form>
      {list.data?.length ? (
        <Table.Root css={STACK_ON_PHONE} size="sm" mt="5" data-testid="announcements-list">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>
                <Trans>公告</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>对象</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">
                <Trans>送达 / 已读</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {list.data.map((a) => (
              <Table.Row key={a.id} data-testid="announcement-row">
                <Table.Cell data-label={t`公告`}>
                  <HStack gap="2">
                    <Badge size="sm">
                      {i18n._(ANNOUNCEMENT_TITLES[a.announcement_type] ?? ANNOUNCEMENT_TITLES[0])}
                    </Badge>
                    {a.display_mode === 1 ? (
                      <Badge size="sm" colorPalette="orange">
                        <Trans>弹窗</Trans>
                      </Badge>
                    ) : null}
                    <Text lineClamp={1} maxW="xs" textDecoration={a.withdrawn_at ? 'line-through' : undefined}>
                      {a.text}
                    </Text>
                  </HStack>
                </Table.Cell>
                <Table.Cell data-label={t`对象`}>{audienceText(a)}</Table.Cell>
                <Table.Cell data-label={t`送达 / 已读`} textAlign="end">
                  {a.delivered} / {a.read}
                </Table.Cell>
                <Table.Cell textAlign="end">
                  {a.withdrawn_at ? (
                    <Text fontSize="xs" color="fg.muted">
                      <Trans>已撤回</Trans>
                    </Text>
                  ) : (
                    <Button size="xs" variant="ghost" colorPalette="red" onClick={() => withdraw.mutate(a.id)}>
                      <Trans>撤回</Trans>
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      ) : null}
    </Box>
  );
}
