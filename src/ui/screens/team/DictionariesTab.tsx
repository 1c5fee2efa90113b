// The shared dictionaries tab of /team: the team's dictionaries (each member turns on the ones used in their own
// checks), and for dictionary admins creating, deleting and filling them, also from their personal dictionary.
// Words of a dictionary in use are flagged in checks as 7 共享词库错词, 6 共享词库敏感词 and 10 共享词库重点词.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Flex,
  HStack,
  IconButton,
  Input,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { BookOpen, Copy, Trash2 } from 'lucide-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../openapi/schema';
import { api, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { EmptyPanel } from '../../layout/EmptyPanel';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { ListPagination } from '../../layout/ListPagination';
import { AddWordForm, type WordDraft } from '../dictionary/WordForm';
import { TYPE_COLORS, TYPE_LABELS } from '../dictionary/types';
import { useTeamAuth } from './useTeamAuth';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

type SharedDictionary = components['schemas']['SharedDictionary'];
const KEY = ['enterprise', 'shared-dictionaries'] as const;
const WORDS_PAGE = 20;

export default function DictionariesTab() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const canManage = useTeamAuth().can('dictionaries.manage');
  const list = useQuery({ queryKey: KEY, queryFn: () => unwrap(api.GET('/enterprise/v1/get_share_dictionary_list')) });
  const [openId, setOpenId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<SharedDictionary | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/enterprise/v1/add_share_dic_info', { body: { name: name.trim() } })),
    onSuccess: (dict) => {
      setName('');
      setOpenId(dict.id);
      return refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (d: SharedDictionary) =>
      unwrap(api.POST('/enterprise/v1/modify_share_dic_status', { body: { id: d.id, status: d.in_use ? 0 : 1 } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/enterprise/v1/delete_share_dic', { body: { id } })),
    onSuccess: () => {
      setDeleting(null);
      setOpenId(null);
      return refresh();
    },
  });
  const dictionaries = list.data ?? [];
  const open = dictionaries.find((d) => d.id === openId) ?? null;

  return (
    <Stack gap="4" data-testid="team-dictionaries">
      <Text color="fg.muted" fontSize="sm">
        <Trans>
          团队共享词库由词库管理员维护。每位成员自己决定启用哪些词库：启用后，校对时会标出其中的错词、敏感词和重点词，允许词不再报错。
        </Trans>
      </Text>
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate();
          }}
        >
          <HStack gap="2">
            <Input
              size="sm"
              maxW="xs"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={50}
              placeholder={t`新词库名称`}
              aria-label={t`新词库名称`}
              data-testid="shared-dict-name"
            />
            <Button type="submit" size="sm" colorPalette="blue" disabled={!name.trim()} loading={create.isPending}>
              <Trans>新建词库</Trans>
            </Button>
          </HStack>
        </form>
      ) : null}
      {list.isPending ? (
        <Skeleton h="20" />
      ) : list.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>无法加载共享词库</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : dictionaries.length === 0 ? (
        <EmptyPanel testId="team-dictionaries-empty" icon={<BookOpen />} title={<Trans>团队还没有共享词库</Trans>} />
      ) : (
        <Box bg="panel" borderWidth="1px" borderRadius="xl" overflowX="auto">
          <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`共享词库`}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>
                  <Trans>词库</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>词数</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>使用人数</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Trans>我的校对</Trans>
                </Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">
                  <Trans>操作</Trans>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {dictionaries.map((d) => (
                <Table.Row key={d.id} data-testid="shared-dict-row" aria-selected={d.id === openId}>
                  <Table.Cell data-label={t`词库`}>
                    <Button variant="plain" size="sm" px="0" onClick={() => setOpenId(d.id === openId ? null : d.id)}>
                      <Verbatim>{d.name}</Verbatim>
                    </Button>
                  </Table.Cell>
                  <Table.Cell data-label={t`词数`} textAlign="end">
                    {d.word_count}
                  </Table.Cell>
                  <Table.Cell data-label={t`使用人数`} textAlign="end">
                    {d.user_count}
                  </Table.Cell>
                  <Table.Cell data-label={t`我的校对`}>
                    <Button
                      size="xs"
                      variant={d.in_use ? 'solid' : 'outline'}
                      colorPalette={d.in_use ? 'green' : 'gray'}
                      loading={toggle.isPending && toggle.variables?.id === d.id}
                      onClick={() => toggle.mutate(d)}
                      aria-pressed={d.in_use}
                      data-testid="shared-dict-toggle"
                    >
                      {d.in_use ? <Trans>已启用</Trans> : <Trans>未启用</Trans>}
                    </Button>
                  </Table.Cell>
                  <Table.Cell data-label={t`操作`} textAlign="end">
                    <HStack gap="1" justify="flex-end">
                      <Button size="xs" variant="ghost" onClick={() => setOpenId(d.id === openId ? null : d.id)}>
                        {d.id === openId ? <Trans>收起</Trans> : <Trans>查看词语</Trans>}
                      </Button>
                      {canManage ? (
                        <IconButton
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          aria-label={t`删除 ${d.name}`}
                          onClick={() => setDeleting(d)}
                        >
                          <Trash2 size={14} />
                        </IconButton>
                      ) : null}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
      {open ? <Words key={open.id} dictionary={open} canManage={canManage} onChanged={refresh} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        destructive
        loading={remove.isPending}
        title={t`删除共享词库「${deleting?.name ?? ''}」？`}
        description={t`词库中的词语会一并删除，所有成员的校对都不再使用它。`}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Stack>
  );
}

function Words(props: { dictionary: SharedDictionary; canManage: boolean; onChanged: () => Promise<unknown> }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [num, setNum] = useState(1);
  const key = ['enterprise', 'shared-words', props.dictionary.id, num] as const;
  const words = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.POST('/enterprise-dic/get_list', { body: { dic_id: props.dictionary.id, num, size: WORDS_PAGE } })),
    placeholderData: keepPreviousData,
  });
  const changed = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['enterprise', 'shared-words', props.dictionary.id] }),
      props.onChanged(),
    ]);
  const add = useMutation({
    mutationFn: (d: WordDraft) =>
      unwrap(
        api.POST('/enterprise-dic/add_one', {
          body: {
            dic_id: props.dictionary.id,
            word: d.word,
            type: d.type,
            ...(d.type === 5 ? { correct: d.correct } : {}),
          },
        }),
      ),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/enterprise-dic/delete_one', { body: { id } })),
    onSuccess: changed,
  });
  const copy = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/enterprise-dic/person_to_enterprise_dic', { body: { dic_id: props.dictionary.id } })),
    onSuccess: (result) => {
      const count = result.count;
      notify({ status: 'success', title: t`已从我的词库复制 ${count} 个词语` });
      return changed();
    },
  });
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p="4" data-testid="shared-dict-words">
      <Flex align="center" gap="2" mb="3" wrap="wrap">
        <Text fontWeight="semibold" flex="1">
          <Verbatim>{props.dictionary.name}</Verbatim>
        </Text>
        {props.canManage ? (
          <Button size="xs" variant="outline" loading={copy.isPending} onClick={() => copy.mutate()}>
            <Copy size={14} aria-hidden />
            <Trans>从我的词库复制</Trans>
          </Button>
        ) : null}
      </Flex>
      {props.canManage ? (
        <Box mb="3">
          <AddWordForm busy={add.isPending} onAdd={(d) => add.mutateAsync(d)} />
        </Box>
      ) : null}
      {words.isPending ? (
        <Skeleton h="16" />
      ) : words.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>无法加载词语</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : words.data.total === 0 ? (
        <Text color="fg.muted" fontSize="sm" data-testid="shared-words-empty">
          <Trans>这个词库还没有词语。</Trans>
        </Text>
      ) : (
        <>
          <Table.Root css={STACK_ON_PHONE} size="sm" aria-label={t`词语`}>
            <Table.Body>
              {words.data.list.map((w) => (
                <Table.Row key={w.id} data-testid="shared-word-row">
                  <Table.Cell>
                    <Verbatim>{w.word}</Verbatim>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={TYPE_COLORS[w.type]}>{i18n._(TYPE_LABELS[w.type])}</Badge>
                  </Table.Cell>
                  <Table.Cell>{w.correct ?? ''}</Table.Cell>
                  {props.canManage ? (
                    <Table.Cell textAlign="end">
                      <IconButton
                        size="xs"
                        variant="ghost"
                        colorPalette="red"
                        aria-label={t`删除 ${w.word}`}
                        disabled={remove.isPending}
                        onClick={() => remove.mutate(w.id)}
                      >
                        <Trash2 size={14} />
                      </IconButton>
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <ListPagination total={words.data.total} size={WORDS_PAGE} page={num} onPage={setNum} />
        </>
      )}
    </Box>
  );
}
