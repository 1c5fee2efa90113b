// The leader dictionary tab of /team: the team's leaders in protocol order (checks flag a wrong title after a
// name, a misspelt name and leaders listed out of order), with its history. Every member reads it; dictionary
// admins add, change, reorder and delete.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Box,
  Button,
  Field,
  Flex,
  HStack,
  IconButton,
  Input,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { ArrowDown, ArrowUp, Crown, Pencil, Trash2 } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addLeader,
  batchAddLeaders,
  deleteLeaders,
  leaderHistory,
  leaderList,
  sortLeaders,
  updateLeader,
  type Leader,
  type LeaderInput,
} from '../../../machines/teamCalls';
import { notify } from '../../../api/notify';
import { EmptyPanel } from '../../layout/EmptyPanel';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { translateNotice } from '../../notices';
import { useTeamAuth } from './useTeamAuth';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const KEYS = { list: ['enterprise', 'leaders'] as const, history: ['enterprise', 'leader-history'] as const };

/**
 * The batch import's lines: `姓名 职务、职务 [单位]` (a tab or spaces between the fields), in protocol order. Lines
 * that do not read so are returned apart, with their line number.
 */
export function parseLeaderLines(text: string): { items: LeaderInput[]; bad: number[] } {
  const items: LeaderInput[] = [];
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const [name, titles, ...rest] = line.trim().split(/\t+|\s{1,}/);
    const list = titlesOf(titles ?? '');
    if (!name || name.length < 2 || list.length === 0) bad.push(i + 1);
    else items.push({ name, titles: list, ...(rest.length ? { organization: rest.join(' ') } : {}) });
  });
  return { items, bad };
}

/** "市长、市委副书记" -> titles. */
const titlesOf = (text: string) => [
  ...new Set(
    text
      .split(/[、,，;；\s]+/)
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

export default function LeadersTab() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const canManage = useTeamAuth().can('leader.manage');
  const list = useQuery({ queryKey: KEYS.list, queryFn: () => leaderList() });
  const history = useQuery({ queryKey: KEYS.history, queryFn: () => leaderHistory() });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: KEYS.list }),
      queryClient.invalidateQueries({ queryKey: KEYS.history }),
    ]);
  const [editing, setEditing] = useState<Leader | null>(null);
  const [deleting, setDeleting] = useState<Leader | null>(null);
  const save = useMutation({
    mutationFn: (input: LeaderInput) => (editing ? updateLeader(editing.id, input) : addLeader(input)),
    onSuccess: () => {
      notify({ status: 'success', title: editing ? t`已修改` : t`已添加` });
      setEditing(null);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteLeaders([id]),
    onSuccess: () => {
      setDeleting(null);
      return refresh();
    },
  });
  const [importing, setImporting] = useState(false);
  const [lines, setLines] = useState('');
  const parsed = parseLeaderLines(lines);
  const batch = useMutation({
    mutationFn: () => batchAddLeaders(parsed.items),
    onSuccess: () => {
      const count = parsed.items.length;
      notify({ status: 'success', title: t`已导入 ${count} 位领导人` });
      setLines('');
      setImporting(false);
      return refresh();
    },
  });
  const move = useMutation({
    mutationFn: (ids: number[]) => sortLeaders(ids),
    onSuccess: refresh,
  });
  const leaders = list.data?.list ?? [];
  const moveBy = (index: number, step: number) => {
    const ids = leaders.map((l) => l.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + step, 0, id);
    move.mutate(ids);
  };

  return (
    <Stack gap="4" data-testid="team-leaders">
      <Text color="fg.muted" fontSize="sm">
        <Trans>
          按排名顺序列出领导人的姓名和职务。校对时会提示姓名后的职务不符、姓名错字，以及并列的领导人顺序与本表不一致。
        </Trans>
      </Text>
      {canManage ? (
        <Box>
          <Button size="xs" variant="ghost" onClick={() => setImporting(!importing)} data-testid="leader-import-toggle">
            {importing ? <Trans>收起批量导入</Trans> : <Trans>批量导入</Trans>}
          </Button>
          {importing ? (
            <Stack gap="2" mt="2" bg="panel" borderWidth="1px" borderRadius="xl" p="4">
              <Text fontSize="sm" color="fg.muted">
                <Trans>
                  每行一位，按排名顺序：姓名、职务（多个用顿号分隔）、单位（选填），中间用空格或制表符隔开。
                </Trans>
              </Text>
              <Textarea
                rows={5}
                value={lines}
                onChange={(e) => setLines(e.target.value)}
                placeholder={'王建国 市委书记\n李红梅 市长、市委副书记'}
                data-testid="leader-import-lines"
              />
              {parsed.bad.length ? (
                <Text fontSize="sm" color="fg.error">
                  <Trans>这些行读不出姓名和职务：第 {parsed.bad.join('、')} 行</Trans>
                </Text>
              ) : null}
              {batch.isError ? (
                <Text fontSize="sm" color="fg.error">
                  {translateNotice(i18n, batch.error.message)}
                </Text>
              ) : null}
              <Button
                size="sm"
                colorPalette="blue"
                alignSelf="flex-start"
                disabled={!parsed.items.length || parsed.bad.length > 0}
                loading={batch.isPending}
                onClick={() => batch.mutate()}
                data-testid="leader-import-submit"
              >
                <Trans>导入 {parsed.items.length} 位</Trans>
              </Button>
            </Stack>
          ) : null}
        </Box>
      ) : null}
      {canManage ? (
        <LeaderForm
          key={editing?.id ?? 'new'}
          editing={editing}
          busy={save.isPending}
          onCancel={() => setEditing(null)}
          onSave={(input) => save.mutate(input)}
        />
      ) : null}
      {list.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>无法加载领导人词库</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : list.isPending ? (
        <Skeleton h="20" />
      ) : leaders.length === 0 ? (
        <EmptyPanel
          testId="team-leaders-empty"
          icon={<Crown />}
          title={<Trans>领导人词库还是空的</Trans>}
          description={canManage ? <Trans>在上方填写姓名和职务添加第一位领导人。</Trans> : undefined}
        />
      ) : (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
          <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`领导人词库`}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w="16">
                  <Trans>排序</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Trans>姓名</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Trans>职务</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Trans>单位</Trans>
                </Table.ColumnHeader>
                {canManage ? (
                  <Table.ColumnHeader textAlign="end">
                    <Trans>操作</Trans>
                  </Table.ColumnHeader>
                ) : null}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {leaders.map((l, index) => (
                <Table.Row key={l.id} data-testid="team-leader-row">
                  <Table.Cell data-label={t`排序`}>{index + 1}</Table.Cell>
                  <Table.Cell data-label={t`姓名`} fontWeight="medium">
                    <Verbatim>{l.name}</Verbatim>
                  </Table.Cell>
                  <Table.Cell data-label={t`职务`}>{l.titles.join('、')}</Table.Cell>
                  <Table.Cell data-label={t`单位`}>{l.organization || '—'}</Table.Cell>
                  {canManage ? (
                    <Table.Cell data-label={t`操作`} textAlign="end">
                      <HStack gap="1" justify="flex-end">
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={t`上移 ${l.name}`}
                          disabled={index === 0 || move.isPending}
                          onClick={() => moveBy(index, -1)}
                        >
                          <ArrowUp size={14} />
                        </IconButton>
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={t`下移 ${l.name}`}
                          disabled={index === leaders.length - 1 || move.isPending}
                          onClick={() => moveBy(index, 1)}
                        >
                          <ArrowDown size={14} />
                        </IconButton>
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={t`修改 ${l.name}`}
                          onClick={() => setEditing(l)}
                        >
                          <Pencil size={14} />
                        </IconButton>
                        <IconButton
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          aria-label={t`删除 ${l.name}`}
                          onClick={() => setDeleting(l)}
                        >
                          <Trash2 size={14} />
                        </IconButton>
                      </HStack>
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
      {history.data?.list.length ? (
        <Stack gap="1" data-testid="team-leader-history">
          <Text fontWeight="semibold" fontSize="sm">
            <Trans>修改记录</Trans>
          </Text>
          {history.data.list.slice(0, 10).map((h) => (
            <Text key={h.id} fontSize="sm" color="fg.muted">
              {i18n.date(new Date(h.created_at), { dateStyle: 'short', timeStyle: 'short' })} · {h.operator_name} ·{' '}
              {h.summary}
            </Text>
          ))}
        </Stack>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        destructive
        loading={remove.isPending}
        title={t`删除领导人「${deleting?.name ?? ''}」？`}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Stack>
  );
}

function LeaderForm(props: {
  editing: Leader | null;
  busy: boolean;
  onSave: (input: LeaderInput) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const [name, setName] = useState(props.editing?.name ?? '');
  const [titles, setTitles] = useState(props.editing?.titles.join('、') ?? '');
  const [organization, setOrganization] = useState(props.editing?.organization ?? '');
  const list = titlesOf(titles);
  const valid = name.trim().length >= 2 && list.length > 0;
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!valid) return;
          props.onSave({
            name: name.trim(),
            titles: list,
            ...(organization.trim() ? { organization: organization.trim() } : {}),
          });
          if (!props.editing) {
            setName('');
            setTitles('');
            setOrganization('');
          }
        }}
      >
        <Flex gap="3" align="flex-end" wrap="wrap">
          <Field.Root w="40">
            <Field.Label>
              <Trans>姓名</Trans>
            </Field.Label>
            <Input
              size="sm"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={20}
              data-testid="leader-name"
            />
          </Field.Root>
          <Field.Root flex="1" minW="48">
            <Field.Label>
              <Trans>职务（多个用顿号分隔）</Trans>
            </Field.Label>
            <Input
              size="sm"
              value={titles}
              onChange={(e) => setTitles(e.target.value)}
              placeholder={t`例如 市委书记、市人大常委会主任`}
              data-testid="leader-titles"
            />
          </Field.Root>
          <Field.Root w="48">
            <Field.Label>
              <Trans>单位（选填）</Trans>
            </Field.Label>
            <Input size="sm" value={organization} onChange={(e) => setOrganization(e.target.value)} maxLength={100} />
          </Field.Root>
          <HStack>
            <Button
              type="submit"
              size="sm"
              colorPalette="blue"
              disabled={!valid}
              loading={props.busy}
              data-testid="leader-save"
            >
              {props.editing ? <Trans>保存</Trans> : <Trans>添加</Trans>}
            </Button>
            {props.editing ? (
              <Button size="sm" variant="ghost" onClick={props.onCancel}>
                <Trans>取消</Trans>
              </Button>
            ) : null}
          </HStack>
        </Flex>
      </form>
    </Box>
  );
}
