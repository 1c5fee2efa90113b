// /dictionary (kept alive): the personal dictionary — search, type filter and paging over
// GET /dict/v1/get_list, add, inline edit, delete one / selected / all (generic confirm dialog), export,
// import with the failures file, and the built-in word libraries.
import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  EmptyState,
  Flex,
  Heading,
  HStack,
  IconButton,
  Input,
  InputGroup,
  Menu,
  Portal,
  Skeleton,
  Stack,
  Table,
  Text,
  VStack,
} from '@chakra-ui/react';
import { BookOpen, Check, ChevronLeft, ChevronRight, Download, Pencil, Search, Trash2, X } from 'lucide-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addWord,
  deleteAllWords,
  deleteWord,
  deleteWords,
  dictPage,
  exportDictionary,
  updateWord,
  type DictWord,
  type FileFormat,
  type WordType,
} from '../../../machines/dictCalls';
import { saveFile } from '../../save-file';
import { ConfirmDialog } from '../../layout/ConfirmDialog';
import { toaster } from '../../toaster';
import { ImportPanel } from './ImportPanel';
import { LibraryChooser } from './LibraryChooser';
import { TYPE_COLORS, TYPE_LABELS } from './types';
import { AddWordForm, draftProblem, TypeSelect, WORD_MAX, type WordDraft } from './WordForm';
import { Verbatim } from '../../layout/Verbatim';
import { STACK_ON_PHONE } from '../../layout/stacked-table';

const PAGE_SIZE = 20;

type Confirm = { kind: 'one'; word: DictWord } | { kind: 'many'; ids: number[] } | { kind: 'all' };

export default function Dictionary() {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [typeFilter, setTypeFilter] = useState<WordType | 0>(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<(WordDraft & { id: number }) | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [exporting, setExporting] = useState(false);

  // the search applies 300 ms after the last key (Enter applies at once)
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => {
    setPage(1);
    setSelected(new Set());
  }, [keyword, typeFilter]);

  const list = useQuery({
    queryKey: ['dict', 'list', { page, keyword, typeFilter }],
    queryFn: () => dictPage({ num: page, size: PAGE_SIZE, keyword, ...(typeFilter ? { type: typeFilter } : {}) }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages]);

  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ['dict'] }), [qc]);
  const done = (title: string) => toaster.create({ type: 'success', title, duration: 3000, closable: true });

  const add = useMutation({ mutationFn: addWord, onSuccess: () => (refresh(), done(t`已添加`)) });
  const update = useMutation({
    mutationFn: updateWord,
    onSuccess: () => (setEditing(null), refresh(), done(t`已保存`)),
  });
  const remove = useMutation({
    mutationFn: async (c: Confirm) => {
      if (c.kind === 'one') return deleteWord(c.word.id);
      if (c.kind === 'many') return deleteWords(c.ids);
      return deleteAllWords();
    },
    onSuccess: () => {
      setConfirm(null);
      setSelected(new Set());
      refresh();
      done(t`已删除`);
    },
    onError: () => setConfirm(null),
  });

  const exportAs = async (format: FileFormat) => {
    setExporting(true);
    try {
      saveFile(await exportDictionary(format));
    } catch {
      // shown by the API layer
    } finally {
      setExporting(false);
    }
  };

  const rows = data?.list ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggleAll = (on: boolean) =>
    setSelected(
      (s) => new Set(on ? [...s, ...rows.map((r) => r.id)] : [...s].filter((id) => !rows.some((r) => r.id === id))),
    );
  const toggleOne = (id: number, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const saveEdit = () => {
    if (!editing) return;
    const problem = draftProblem(editing);
    if (problem) {
      toaster.create({ type: 'error', title: i18n._(problem), duration: 4000, closable: true });
      return;
    }
    update.mutate({
      id: editing.id,
      word: editing.word.trim(),
      type: editing.type,
      ...(editing.type === 5 ? { correct: editing.correct.trim() } : {}),
    });
  };
  const editKeys = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      saveEdit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setEditing(null);
    }
  };

  const confirmTitle =
    confirm?.kind === 'one'
      ? t`删除「${confirm.word.word}」？`
      : confirm?.kind === 'many'
        ? t`删除选中的 ${confirm.ids.length} 个词条？`
        : t`清空整个个人词库？`;

  const filtered = keyword !== '' || typeFilter !== 0;

  return (
    <Stack gap="6" data-testid="dictionary-screen">
      <Stack gap="4" bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '4', md: '6' }}>
        <Flex gap="3" wrap="wrap" align="center">
          <Heading as="h2" size="md" flex="1" minW="40">
            <Trans>个人词库</Trans>
            {data ? (
              <Text as="span" ms="2" fontSize="sm" fontWeight="normal" color="fg.muted" data-testid="dict-total">
                <Trans>共 {data.total} 条</Trans>
              </Text>
            ) : null}
          </Heading>
          <InputGroup startElement={<Search size={14} />} maxW="60">
            <Input
              size="sm"
              type="search"
              value={search}
              placeholder={t`搜索词语或正确写法`}
              aria-label={t`搜索词语或正确写法`}
              data-testid="dict-search"
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && setKeyword(search.trim())}
            />
          </InputGroup>
          <TypeSelect
            value={typeFilter}
            includeAll
            label={t`按类型筛选`}
            testId="dict-filter-type"
            onChange={setTypeFilter}
          />
          <Menu.Root>
            <Menu.Trigger asChild>
              <Button size="sm" variant="outline" loading={exporting} data-testid="dict-export">
                <Download size={14} />
                <Trans>导出</Trans>
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item value="xlsx" onClick={() => exportAs('xlsx')} data-testid="dict-export-xlsx">
                    <Trans>导出为 Excel (.xlsx)</Trans>
                  </Menu.Item>
                  <Menu.Item value="csv" onClick={() => exportAs('csv')} data-testid="dict-export-csv">
                    <Trans>导出为 CSV (.csv)</Trans>
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </Flex>

        <AddWordForm
          busy={add.isPending}
          onAdd={(d) =>
            add.mutateAsync({ word: d.word, type: d.type, ...(d.type === 5 ? { correct: d.correct } : {}) })
          }
        />

        <Flex gap="2" wrap="wrap" align="center">
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            disabled={selected.size === 0}
            onClick={() => setConfirm({ kind: 'many', ids: [...selected] })}
            data-testid="dict-delete-selected"
          >
            <Trash2 size={14} />
            <Trans>删除所选 ({selected.size})</Trans>
          </Button>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            disabled={!data?.total || filtered}
            onClick={() => setConfirm({ kind: 'all' })}
            data-testid="dict-delete-all"
          >
            <Trans>清空词库</Trans>
          </Button>
        </Flex>

        {list.isPending ? (
          <Skeleton h="40" />
        ) : list.isError ? (
          <Text color="red.fg">
            <Trans>词库加载失败，请刷新重试</Trans>
          </Text>
        ) : rows.length === 0 ? (
          <EmptyState.Root borderWidth="1px" borderRadius="lg" data-testid="dict-empty">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <BookOpen />
              </EmptyState.Indicator>
              <VStack textAlign="center" maxW="lg">
                <EmptyState.Title as="h2">
                  {filtered ? <Trans>没有符合条件的词条</Trans> : <Trans>词库还是空的</Trans>}
                </EmptyState.Title>
                <EmptyState.Description>
                  {filtered ? (
                    <Trans>换个关键词或类型试试。</Trans>
                  ) : (
                    <Trans>
                      在上方添加词语，或从文件批量导入。错词会在检查时标出并给出正确写法，允许词永远不会被报错。
                    </Trans>
                  )}
                </EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Box overflowX="auto">
            <Table.Root css={STACK_ON_PHONE} size="sm" interactive data-testid="dict-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader w="10">
                    <Checkbox.Root size="sm" checked={allOnPage} onCheckedChange={(e) => toggleAll(!!e.checked)}>
                      <Checkbox.HiddenInput aria-label={t`选择本页全部`} data-testid="dict-select-page" />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>词语</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>类型</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>
                    <Trans>正确写法</Trans>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">
                    <Trans>操作</Trans>
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((w) =>
                  editing?.id === w.id ? (
                    <Table.Row key={w.id} data-testid="dict-row-editing" onKeyDown={editKeys}>
                      <Table.Cell />
                      <Table.Cell data-label={t`词语`}>
                        <Input
                          size="xs"
                          autoFocus
                          value={editing.word}
                          maxLength={WORD_MAX}
                          aria-label={t`词语`}
                          data-testid="dict-edit-word"
                          onChange={(e) => setEditing({ ...editing, word: e.target.value })}
                        />
                      </Table.Cell>
                      <Table.Cell data-label={t`类型`}>
                        <TypeSelect
                          value={editing.type}
                          label={t`类型`}
                          testId="dict-edit-type"
                          onChange={(v) => setEditing({ ...editing, type: (v || 5) as WordType })}
                        />
                      </Table.Cell>
                      <Table.Cell data-label={t`正确写法`}>
                        {editing.type === 5 ? (
                          <Input
                            size="xs"
                            value={editing.correct}
                            maxLength={WORD_MAX}
                            aria-label={t`正确写法`}
                            data-testid="dict-edit-correct"
                            onChange={(e) => setEditing({ ...editing, correct: e.target.value })}
                          />
                        ) : null}
                      </Table.Cell>
                      <Table.Cell data-label={t`操作`} textAlign="end">
                        <HStack justify="flex-end" gap="1">
                          <IconButton
                            size="xs"
                            variant="ghost"
                            colorPalette="blue"
                            aria-label={t`保存`}
                            loading={update.isPending}
                            onClick={saveEdit}
                            data-testid="dict-edit-save"
                          >
                            <Check size={14} />
                          </IconButton>
                          <IconButton size="xs" variant="ghost" aria-label={t`取消`} onClick={() => setEditing(null)}>
                            <X size={14} />
                          </IconButton>
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  ) : (
                    <Table.Row key={w.id} data-testid="dict-row" data-word={w.word}>
                      <Table.Cell>
                        <Checkbox.Root
                          size="sm"
                          checked={selected.has(w.id)}
                          onCheckedChange={(e) => toggleOne(w.id, !!e.checked)}
                        >
                          <Checkbox.HiddenInput aria-label={t`选择「${w.word}」`} />
                          <Checkbox.Control />
                        </Checkbox.Root>
                      </Table.Cell>
                      <Table.Cell data-label={t`词语`} fontWeight="medium">
                        <Verbatim>{w.word}</Verbatim>
                      </Table.Cell>
                      <Table.Cell data-label={t`类型`}>
                        <Badge size="sm" variant="subtle" colorPalette={TYPE_COLORS[w.type]}>
                          {i18n._(TYPE_LABELS[w.type])}
                        </Badge>
                      </Table.Cell>
                      <Table.Cell data-label={t`正确写法`} color={w.correct ? undefined : 'fg.subtle'}>
                        {w.correct ? <Verbatim>{w.correct}</Verbatim> : '—'}
                      </Table.Cell>
                      <Table.Cell data-label={t`操作`} textAlign="end">
                        <HStack justify="flex-end" gap="1">
                          <IconButton
                            size="xs"
                            variant="ghost"
                            aria-label={t`编辑「${w.word}」`}
                            data-testid="dict-edit"
                            onClick={() =>
                              setEditing({ id: w.id, word: w.word, type: w.type, correct: w.correct ?? '' })
                            }
                          >
                            <Pencil size={14} />
                          </IconButton>
                          <IconButton
                            size="xs"
                            variant="ghost"
                            colorPalette="red"
                            aria-label={t`删除「${w.word}」`}
                            data-testid="dict-delete"
                            onClick={() => setConfirm({ kind: 'one', word: w })}
                          >
                            <Trash2 size={14} />
                          </IconButton>
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  ),
                )}
              </Table.Body>
            </Table.Root>
          </Box>
        )}

        {data && data.total > PAGE_SIZE ? (
          <Flex justify="flex-end" align="center" gap="2" data-testid="dict-paging">
            <IconButton
              size="xs"
              variant="outline"
              aria-label={t`上一页`}
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
              data-testid="dict-prev"
            >
              <ChevronLeft size={14} />
            </IconButton>
            <Text fontSize="sm" data-testid="dict-page">
              <Trans>
                第 {page} / {pages} 页
              </Trans>
            </Text>
            <IconButton
              size="xs"
              variant="outline"
              aria-label={t`下一页`}
              disabled={page >= pages}
              onClick={() => setPage(page + 1)}
              data-testid="dict-next"
            >
              <ChevronRight size={14} />
            </IconButton>
          </Flex>
        ) : null}
      </Stack>

      <Flex gap="6" direction={{ base: 'column', xl: 'row' }} align="stretch">
        <Box flex="1">
          <ImportPanel onImported={refresh} />
        </Box>
        <Box flex="1">
          <LibraryChooser />
        </Box>
      </Flex>

      <ConfirmDialog
        open={confirm !== null}
        title={confirmTitle}
        description={
          confirm?.kind === 'all' ? (
            <Trans>所有词条都会删除，且无法恢复。建议先导出备份。</Trans>
          ) : (
            <Trans>删除后无法恢复。</Trans>
          )
        }
        destructive
        loading={remove.isPending}
        onConfirm={() => confirm && remove.mutate(confirm)}
        onCancel={() => setConfirm(null)}
      />
    </Stack>
  );
}
