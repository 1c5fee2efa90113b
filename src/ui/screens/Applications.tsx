// The operators' review of team and API-access applications (shown on /user to accounts with role root): pending
// ones first, approve (a team application creates the team, its applicant the root; seats default to the stated
// size) or refuse with a note. The admin CLI does the same (`admin application …`).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import { ClipboardCheck } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../openapi/schema';
import { api, unwrap } from '../../api/client';
import { notify } from '../../api/notify';
import { translateNotice } from '../notices';

type Application = components['schemas']['Application'];
type Status = Application['status'];
const KEY = ['admin', 'applications'] as const;
const STATUSES: readonly Status[] = ['pending', 'approved', 'refused'];

export function ApplicationsReview() {
  const { t, i18n } = useLingui();
  const [status, setStatus] = useState<Status>('pending');
  const list = useQuery({
    queryKey: [...KEY, status],
    queryFn: () => unwrap(api.GET('/admin/v1/applications', { params: { query: { status } } })),
  });
  const labels: Record<Status, string> = { pending: t`待审核`, approved: t`已通过`, refused: t`已拒绝` };
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }} data-testid="applications-review">
      <Flex align="center" gap="2" mb="4" wrap="wrap">
        <ClipboardCheck size={18} aria-hidden />
        <Heading as="h3" size="md" flex="1">
          <Trans>团队与 API 申请审核</Trans>
        </Heading>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            aria-label={t`申请状态`}
            value={status}
            onChange={(e) => setStatus(STATUSES.find((s) => s === e.target.value) ?? 'pending')}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {labels[s]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      {list.isPending ? (
        <Skeleton h="16" />
      ) : list.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{translateNotice(i18n, list.error.message)}</Alert.Title>
        </Alert.Root>
      ) : list.data.length === 0 ? (
        <EmptyState.Root size="sm">
          <EmptyState.Content>
            <VStack textAlign="center">
              <EmptyState.Title as="h2">
                <Trans>没有{labels[status]}的申请</Trans>
              </EmptyState.Title>
            </VStack>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <Stack gap="3">
          {list.data.map((a) => (
            <ApplicationRow key={a.id} application={a} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function ApplicationRow({ application: a }: { application: Application }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [seats, setSeats] = useState(a.user_num ? String(a.user_num) : '');
  const [note, setNote] = useState('');
  const review = useMutation({
    mutationFn: (approve: boolean) =>
      unwrap(
        api.POST('/admin/v1/applications/review', {
          body: {
            id: a.id,
            approve,
            ...(note.trim() ? { note: note.trim() } : {}),
            ...(approve && a.kind === 'team' && /^\d+$/.test(seats) && Number(seats) > 0
              ? { seats: Number(seats) }
              : {}),
          },
        }),
      ),
    onSuccess: (_result, approve) => {
      notify({ status: 'success', title: approve ? t`已通过` : t`已拒绝` });
      return queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  return (
    <Box borderWidth="1px" borderRadius="lg" p="4" data-testid="application-row">
      <Flex gap="2" align="center" wrap="wrap" mb="1">
        <Badge colorPalette={a.kind === 'team' ? 'blue' : 'purple'}>{a.kind === 'team' ? t`团队版` : 'API'}</Badge>
        <Text fontWeight="semibold">{a.name || a.contact_name}</Text>
        <Text fontSize="sm" color="fg.muted">
          {a.contact_name} · {a.phone}
          {a.email ? ` · ${a.email}` : ''} · {i18n.date(new Date(a.created_at), { dateStyle: 'medium' })}
        </Text>
      </Flex>
      {a.remark ? (
        <Text fontSize="sm" mb="2">
          {a.remark}
        </Text>
      ) : null}
      {a.status === 'pending' ? (
        <HStack gap="2" wrap="wrap">
          {a.kind === 'team' ? (
            <Input
              size="sm"
              w="28"
              value={seats}
              onChange={(e) => setSeats(e.target.value.trim())}
              placeholder={t`席位数`}
              aria-label={t`席位数`}
              inputMode="numeric"
            />
          ) : null}
          <Input
            size="sm"
            flex="1"
            minW="40"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={t`备注（选填）`}
            maxLength={500}
          />
          <Button
            size="sm"
            colorPalette="blue"
            loading={review.isPending}
            onClick={() => review.mutate(true)}
            data-testid="application-approve"
          >
            <Trans>通过</Trans>
          </Button>
          <Button size="sm" variant="outline" disabled={review.isPending} onClick={() => review.mutate(false)}>
            <Trans>拒绝</Trans>
          </Button>
        </HStack>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {a.status === 'approved' ? <Trans>已通过</Trans> : <Trans>已拒绝</Trans>}
          {a.enterprise_id ? <Trans>（团队 {a.enterprise_id}）</Trans> : null}
          {a.review_note ? ` · ${a.review_note}` : ''}
        </Text>
      )}
    </Box>
  );
}
