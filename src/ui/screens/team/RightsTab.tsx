// The rights tab of /team: the team's right packages (what each right holds, has allocated and has left, until
// when), allocating an amount of a right to members, and what each member was allocated and has used.
import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Flex, Input, NativeSelect, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { Gift } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EmptyPanel } from '../../layout/EmptyPanel';
import { allocate, allocations, memberPage, teamPackages } from '../../../machines/teamCalls';
import { notify } from '../../../api/notify';
import { useTeamAuth } from './useTeamAuth';
import { formatRight, isUnlimited } from '../../format/balance';
import { rightTitle } from '../commerce/labels';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const KEYS = { packages: ['enterprise', 'packages'] as const, allocations: ['enterprise', 'allocations'] as const };

export default function RightsTab() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const canAllocate = useTeamAuth().can('rights.allocate');
  const packages = useQuery({ queryKey: KEYS.packages, queryFn: () => teamPackages() });
  const allocated = useQuery({ queryKey: KEYS.allocations, queryFn: () => allocations() });
  const members = useQuery({
    queryKey: ['enterprise', 'active-members'],
    queryFn: () => memberPage({ num: 1, size: 100, status: 1 }),
    enabled: canAllocate,
  });
  const [packageId, setPackageId] = useState('');
  const [type, setType] = useState('');
  const [uid, setUid] = useState('');
  const [amount, setAmount] = useState('');
  const give = useMutation({
    mutationFn: () =>
      allocate({
        package_id: Number(packageId),
        uids: [Number(uid)],
        user_right_type: Number(type),
        num: Number(amount),
      }),
    onSuccess: () => {
      notify({ status: 'success', title: t`已分配` });
      setAmount('');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: KEYS.packages }),
        queryClient.invalidateQueries({ queryKey: KEYS.allocations }),
      ]);
    },
  });
  const chosen = packages.data?.find((p) => String(p.id) === packageId);
  const valid = chosen && type && uid && /^\d+$/.test(amount) && Number(amount) > 0;

  if (packages.isPending) return <Skeleton h="32" />;
  if (packages.isError)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>
          <Trans>无法加载团队权益</Trans>
        </Alert.Title>
      </Alert.Root>
    );
  if (!packages.data.length)
    return (
      <EmptyPanel
        testId="team-rights-empty"
        icon={<Gift />}
        title={<Trans>团队还没有权益包</Trans>}
        description={
          <Trans>团队超级管理员或管理员在“升级会员”购买团队版后，权益归团队所有，可在这里分配给成员。</Trans>
        }
      />
    );
  return (
    <Stack gap="4" data-testid="team-rights">
      {packages.data.map((p) => (
        <Box key={p.id} bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto" data-testid="team-package">
          <Flex px="4" py="3" gap="3" align="baseline" borderBottomWidth="1px">
            <Text fontWeight="semibold">{p.product_name}</Text>
            <Text fontSize="sm" color="fg.muted">
              {p.expire_time ? (
                <Trans>有效期至 {i18n.date(new Date(p.expire_time), { dateStyle: 'medium' })}</Trans>
              ) : (
                <Trans>长期有效</Trans>
              )}
            </Text>
          </Flex>
          <Table.Root css={STACK_ON_PHONE} size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>
                  <Trans>权益</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>总量</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>已分配</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>可分配</Trans>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {p.rights.map((r) => (
                <Table.Row key={r.user_right_type}>
                  <Table.Cell data-label={t`权益`}>{rightTitle(i18n, r.user_right_type, r.title)}</Table.Cell>
                  <Table.Cell data-label={t`总量`} textAlign="end">
                    {formatRight(i18n, r.user_right_type, r.total)}
                  </Table.Cell>
                  <Table.Cell data-label={t`已分配`} textAlign="end">
                    {formatRight(i18n, r.user_right_type, r.allocated)}
                  </Table.Cell>
                  <Table.Cell
                    data-label={t`可分配`}
                    textAlign="end"
                    data-testid={`package-remaining-${r.user_right_type}`}
                  >
                    {/* what is left of an unlimited right is unlimited, however much was allocated */}
                    {formatRight(i18n, r.user_right_type, isUnlimited(r.total) ? r.total : r.remaining)}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      ))}
      {canAllocate ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (valid) give.mutate();
            }}
          >
            <Flex gap="3" align="flex-end" wrap="wrap">
              <Choice label={t`权益包`} value={packageId} onChange={setPackageId} testId="allocate-package">
                {packages.data.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.product_name}
                  </option>
                ))}
              </Choice>
              <Choice label={t`权益`} value={type} onChange={setType} testId="allocate-type">
                {(chosen?.rights ?? []).map((r) => (
                  <option key={r.user_right_type} value={r.user_right_type}>
                    {r.title}
                  </option>
                ))}
              </Choice>
              <Choice label={t`成员`} value={uid} onChange={setUid} testId="allocate-member">
                {(members.data?.list ?? [])
                  .filter((m) => m.uid !== null)
                  .map((m) => (
                    <option key={m.id} value={m.uid ?? ''}>
                      <Verbatim>{m.name}</Verbatim>（{m.phone}）
                    </option>
                  ))}
              </Choice>
              <Field.Root w="36">
                <Field.Label>
                  <Trans>数量</Trans>
                </Field.Label>
                <Input
                  size="sm"
                  inputMode="numeric"
                  value={amount}
                  onChange={(e) => setAmount(e.target.value.trim())}
                  data-testid="allocate-amount"
                />
              </Field.Root>
              <Button
                type="submit"
                size="sm"
                colorPalette="blue"
                disabled={!valid}
                loading={give.isPending}
                data-testid="allocate-submit"
              >
                <Trans>分配</Trans>
              </Button>
            </Flex>
          </form>
        </Box>
      ) : null}
      {allocated.data?.length ? (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto" data-testid="team-allocations">
          <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`成员分配情况`}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>
                  <Trans>成员</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Trans>权益</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>已分配</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>已使用</Trans>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {allocated.data.flatMap((m) =>
                m.rights.map((r) => (
                  <Table.Row key={`${m.uid}-${r.user_right_type}`}>
                    <Table.Cell data-label={t`成员`}>
                      <Verbatim>{m.name}</Verbatim>
                    </Table.Cell>
                    <Table.Cell data-label={t`权益`}>{rightTitle(i18n, r.user_right_type, r.title)}</Table.Cell>
                    <Table.Cell data-label={t`已分配`} textAlign="end">
                      {formatRight(i18n, r.user_right_type, r.num)}
                    </Table.Cell>
                    <Table.Cell data-label={t`已使用`} textAlign="end">
                      {formatRight(i18n, r.user_right_type, r.used)}
                    </Table.Cell>
                  </Table.Row>
                )),
              )}
            </Table.Body>
          </Table.Root>
        </Box>
      ) : null}
    </Stack>
  );
}

/** A labelled select whose first option is 请选择 (nothing chosen). */
function Choice(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Field.Root w="auto">
      <Field.Label>{props.label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          data-testid={props.testId}
        >
          <option value="">{t`请选择`}</option>
          {props.children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
