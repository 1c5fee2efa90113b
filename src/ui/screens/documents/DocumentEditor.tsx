// The document editor (route /editor?id=, no side bar) and the read-only shared view
// (/share-doc?id=<share id>): the document with its findings marked in place, the home screen's finding
// cards and actions, manual edits of the text, save, export (.docx clean or with tracked changes and
// comments) and a share link. Keyboard: Alt+↓/↑ (or j/k) next/previous finding, Alt+Enter accept,
// Alt+Backspace ignore.
import { inspectOptions } from '../../../machines/inspect';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Button,
  CloseButton,
  Dialog,
  Flex,
  HStack,
  IconButton,
  Input,
  Menu,
  Portal,
  Spinner,
  Stack,
  Text,
  Textarea,
  VStack,
} from '@chakra-ui/react';
import { ArrowLeft, Copy, Download, FileText, PencilLine, RefreshCw, Save, Share2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useLocation, useSearch } from 'wouter';
import { systemActor } from '../../../machines/system';
import { notify } from '../../../api/notify';
import { documentsKey, saveSharedCopy } from '../../../machines/documentCalls';
import { isEditable, settled, type DocFinding, type DocumentEditorEvent } from '../../../machines/documentEditor';
import { liveDocumentEditor, liveDocumentExport } from '../../../machines/live';
import { AppActorContext, useSession } from '../../app-actor';
import { cssAttr, revealFinding } from '../../findings/reveal';
import { translateNotice } from '../../notices';
import { FindingGroups, FindingsPanel, ReviewKeys } from '../../findings/FindingsPanel';
import { useCategoryLabels, useFindingReview } from '../../findings/useFindingReview';
import { renderDocument } from './render';
import { StatusBadge } from './status';
import { DocumentTooLong } from './DocumentTooLong';
import { saveFile } from '../../save-file';
import './notices';
import { Verbatim } from '../../layout/Verbatim';

const CARDS_SHOWN = 100;

/** The link for a share id (the read-only view, no login needed). */
export function shareLink(id: string): string {
  const origin = globalThis.location?.origin ?? '';
  return `${origin}/workbench/share-doc?id=${encodeURIComponent(id)}`;
}

export function DocumentView(props: { id: number | null; shareId: string | null }) {
  const { t, i18n } = useLingui();
  const app = AppActorContext.useActorRef();
  const logic = useMemo(() => liveDocumentEditor({ socket: () => systemActor(app.system, 'socket') }), [app]);
  const editor = useActorRef(logic, { input: { id: props.id, shareId: props.shareId }, ...inspectOptions() });
  const send = useCallback((event: DocumentEditorEvent) => editor.send(event), [editor]);
  const loading = useSelector(editor, (s) => s.matches('loading'));
  const failed = useSelector(editor, (s) => s.matches('failed'));
  const saving = useSelector(editor, (s) => s.matches({ ready: 'saving' }));
  const doc = useSelector(editor, (s) => s.context.doc);
  const text = useSelector(editor, (s) => s.context.text);
  const findings = useSelector(editor, (s) => s.context.findings);
  const fixes = useSelector(editor, (s) => s.context.fixes);
  const dirty = useSelector(editor, (s) => s.context.dirty);
  const error = useSelector(editor, (s) => s.context.error);
  const editable = useSelector(editor, (s) => isEditable(s.context));
  const readOnly = props.shareId !== null || !!doc?.read_only;
  const { status: session } = useSession();
  const queryClient = useQueryClient();
  // export and share run in their own machine beside the editor; the view saves the file and says "saved"
  const latest = useRef({ queryClient });
  latest.current = { queryClient };
  const exportLogic = useMemo(
    () =>
      liveDocumentExport({
        download: (blob, name) => saveFile({ blob, name }),
        saved: () => {
          notify({ status: 'success', title: '已保存' });
          void latest.current.queryClient.invalidateQueries({ queryKey: documentsKey });
        },
      }),
    [],
  );
  const exporter = useActorRef(exportLogic, { input: { editor }, ...inspectOptions() });
  const exporting = useSelector(exporter, (s) => s.context.mode);
  const sharedId = useSelector(exporter, (s) => s.context.shareId);
  const link = sharedId ? shareLink(sharedId) : null;
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);

  const labelOf = useCategoryLabels();

  const rendered = useMemo(
    () =>
      doc
        ? renderDocument(
            doc.html,
            text,
            findings.map((f) => ({ id: f.id, start: f.start, end: f.end, level: f.level })),
          )
        : null,
    [doc, text, findings],
  );

  const view = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  // the selected mark and its card come into view
  const reveal = useCallback((f: DocFinding) => revealFinding(view.current, f.id, 'smooth'), []);
  const current = useCallback(() => editor.getSnapshot().context.findings, [editor]);
  const saveKey = useCallback(
    (e: KeyboardEvent) => {
      if (!((e.ctrlKey || e.metaKey) && e.key === 's' && editable)) return false;
      send({ type: 'save requested' });
      return true;
    },
    [editable, send],
  );
  const review = useFindingReview<DocFinding>({
    findings,
    current,
    send,
    editable,
    reveal,
    text,
    root,
    extraKey: saveKey,
  });
  const { selectedId, select, step } = review;
  const cards = { selectedId, text, labelOf, onAction: review.onAction };

  // the selected mark is flagged in place (a long document has thousands of marks: no re-render, no new styles)
  useEffect(() => {
    const root = view.current;
    if (!root) return;
    root.querySelector('mark[data-selected]')?.removeAttribute('data-selected');
    if (selectedId)
      root.querySelector(`mark[data-finding="${cssAttr(selectedId)}"]`)?.setAttribute('data-selected', '');
  }, [selectedId, rendered, editing]);

  const onViewClick = (e: MouseEvent<HTMLDivElement>) => {
    const mark = (e.target as HTMLElement).closest('mark[data-finding]');
    if (!mark) return;
    select(findings.find((f) => f.id === mark.getAttribute('data-finding')));
  };

  const save = async () => {
    send({ type: 'save requested' });
    const ok = await settled(editor);
    if (ok) {
      notify({ status: 'success', title: '已保存' });
      void queryClient.invalidateQueries({ queryKey: documentsKey });
    }
    return ok;
  };

  const copyLink = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      notify({ status: 'success', title: '分享链接已复制' });
    } catch {
      notify({ status: 'error', title: '复制失败' });
    }
  };

  const saveCopy = async () => {
    if (!props.shareId) return;
    try {
      const copy = await saveSharedCopy(props.shareId);
      notify({ status: 'success', title: '已保存到我的文档' });
      void queryClient.invalidateQueries({ queryKey: documentsKey });
      navigate(`/editor?id=${copy.id}`);
    } catch {
      // told by the catalogue
    }
  };

  if (loading && !doc) {
    return (
      <Flex justify="center" py="20" data-testid="editor-loading">
        <Spinner size="lg" />
      </Flex>
    );
  }
  if (failed || !doc) {
    return (
      <VStack py="20" gap="3" data-testid="editor-failed">
        <FileText />
        <Text color="fg.error">{error ? translateNotice(i18n, error) : <Trans>文档加载失败</Trans>}</Text>
        <Button size="sm" variant="outline" onClick={() => send({ type: 'reload' })}>
          <RefreshCw size={14} />
          <Trans>重试</Trans>
        </Button>
      </VStack>
    );
  }

  const busy = doc.status === 'queued' || doc.status === 'running';
  // export and share need the first check done (a saved document being re-checked is fine)
  const firstCheckPending = doc.status !== 'done' && !doc.edited;

  return (
    <Stack ref={root} gap="4" data-testid="editor-screen" data-status={doc.status} data-dirty={dirty || undefined}>
      <DocumentTooLong editor={editor} />
      <Flex gap="2" align="center" wrap="wrap">
        {readOnly ? null : (
          <IconButton
            size="sm"
            variant="ghost"
            aria-label={t`返回我的文档`}
            onClick={() => navigate('/document')}
            data-testid="editor-back"
          >
            <ArrowLeft />
          </IconButton>
        )}
        <Text fontWeight="semibold" fontSize="lg" truncate maxW="md" data-testid="editor-name">
          <Verbatim>{doc.name}</Verbatim>
        </Text>
        <StatusBadge status={doc.status} progress={doc.progress} error={doc.error} />
        {readOnly ? (
          <Badge colorPalette="purple" data-testid="editor-read-only">
            <Trans>只读</Trans>
          </Badge>
        ) : null}
        {dirty ? (
          <Badge colorPalette="orange" data-testid="editor-unsaved">
            <Trans>未保存</Trans>
          </Badge>
        ) : null}
        <Box flex="1" />
        {readOnly ? (
          session === 'loggedIn' ? (
            <Button size="sm" colorPalette="blue" onClick={() => void saveCopy()} data-testid="share-save">
              <Save size={16} />
              <Trans>保存到我的文档</Trans>
            </Button>
          ) : null
        ) : (
          <>
            {busy ? (
              <Button size="sm" variant="ghost" onClick={() => send({ type: 'reload' })} data-testid="editor-refresh">
                <RefreshCw size={16} />
                <Trans>刷新</Trans>
              </Button>
            ) : null}
            <Button
              size="sm"
              variant={editing ? 'solid' : 'outline'}
              disabled={!editable}
              onClick={() => setEditing(!editing)}
              aria-pressed={editing}
              data-testid="editor-edit-toggle"
            >
              <PencilLine size={16} />
              {editing ? <Trans>完成编辑</Trans> : <Trans>编辑文本</Trans>}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={!dirty || !editable}
              loading={saving}
              onClick={() => void save()}
              data-testid="editor-save"
            >
              <Save size={16} />
              <Trans>保存</Trans>
            </Button>
            <Menu.Root>
              <Menu.Trigger asChild>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={firstCheckPending}
                  loading={exporting !== null}
                  data-testid="editor-export"
                >
                  <Download size={16} />
                  <Trans>导出</Trans>
                </Button>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    <Menu.Item
                      value="clean"
                      onSelect={() => exporter.send({ type: 'export requested', mode: 'clean' })}
                      data-testid="export-clean"
                    >
                      <Trans>导出 Word（清洁版）</Trans>
                    </Menu.Item>
                    <Menu.Item
                      value="tracked"
                      onSelect={() => exporter.send({ type: 'export requested', mode: 'tracked' })}
                      data-testid="export-tracked"
                    >
                      <Trans>导出 Word（修订与批注）</Trans>
                    </Menu.Item>
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
            <Button
              size="sm"
              colorPalette="blue"
              disabled={firstCheckPending}
              onClick={() => exporter.send({ type: 'share requested' })}
              data-testid="editor-share"
            >
              <Share2 size={16} />
              <Trans>分享</Trans>
            </Button>
          </>
        )}
      </Flex>

      {busy ? (
        <Text fontSize="sm" color="fg.muted" data-testid="editor-busy">
          <Trans>文档正在校对，完成后结果会自动显示。</Trans>
        </Text>
      ) : null}

      <Flex gap="5" direction={{ base: 'column', lg: 'row' }} align="stretch">
        <Box flex="1" minW="0">
          {editing ? (
            <Textarea
              value={text}
              readOnly={saving}
              onChange={(e) => send({ type: 'text edited', text: e.currentTarget.value })}
              minH="60vh"
              fontSize="md"
              lineHeight="1.9"
              aria-label={t`文档文本（每行一段）`}
              data-testid="editor-textarea"
            />
          ) : (
            <Box
              ref={view}
              bg="panel"
              borderWidth="1px"
              borderRadius="xl"
              px={{ base: '4', md: '10' }}
              py="8"
              lineHeight="1.9"
              fontSize="md"
              maxH={{ lg: 'calc(100vh - 190px)' }}
              overflowY="auto"
              onClick={onViewClick}
              data-testid="document-view"
              data-structured={rendered?.structured || undefined}
              css={{
                '& h1': { fontSize: '2xl', fontWeight: 'bold', textAlign: 'center', my: '3' },
                '& h2': { fontSize: 'xl', fontWeight: 'bold', my: '2' },
                '& h3, & h4, & h5, & h6': { fontSize: 'lg', fontWeight: 'semibold', my: '2' },
                '& p': { my: '2', textIndent: '2em' },
                // a block's formatting from the .docx (server/formats/documents/docx-format.ts)
                '& .wb-align-center': { textAlign: 'center', textIndent: '0' },
                '& .wb-align-right': { textAlign: 'right', textIndent: '0' },
                '& .wb-align-justify': { textAlign: 'justify' },
                '& .wb-bold': { fontWeight: 'bold' },
                '& .wb-italic': { fontStyle: 'italic' },
                '& .wb-underline': { textDecoration: 'underline' },
                '& .wb-size-s': { fontSize: 'sm' },
                '& .wb-size-l': { fontSize: 'xl' },
                '& .wb-size-xl': { fontSize: '2xl' },
                '& ul, & ol': { pl: '6', my: '2' },
                '& ul': { listStyleType: 'disc' },
                '& ol': { listStyleType: 'decimal' },
                '& table': { borderCollapse: 'collapse', my: '3', width: 'full' },
                '& td, & th': { borderWidth: '1px', borderColor: 'border', px: '2', py: '1' },
                '& mark': {
                  bg: 'red.subtle',
                  color: 'fg',
                  borderBottomWidth: '2px',
                  borderColor: 'red.solid',
                  cursor: 'pointer',
                  borderRadius: 'xs',
                },
                '& mark[data-level="2"]': { bg: 'orange.subtle', borderColor: 'orange.solid' },
                '& mark[data-level="3"]': { bg: 'blue.subtle', borderColor: 'blue.solid' },
                '& mark[data-selected]': { outline: '2px solid', outlineColor: 'blue.solid', bg: 'blue.muted' },
              }}
              dangerouslySetInnerHTML={{ __html: rendered?.html ?? '' }}
            />
          )}
          <Flex mt="2" gap="4" fontSize="sm" color="fg.muted" wrap="wrap">
            <Text data-testid="editor-fix-count">
              <Trans>已采纳 {fixes.length} 处</Trans>
            </Text>
            <Box flex="1" />
            <ReviewKeys editable={!readOnly} />
          </Flex>
        </Box>

        <FindingsPanel count={findings.length} onStep={step}>
          {findings.length === 0 ? (
            <Text textAlign="center" py="8" color="fg.muted" data-testid="no-findings">
              {busy ? <Trans>正在校对…</Trans> : <Trans>未发现问题</Trans>}
            </Text>
          ) : (
            <FindingGroups list={findings} limit={CARDS_SHOWN} readOnly={readOnly} {...cards} />
          )}
        </FindingsPanel>
      </Flex>

      <Dialog.Root
        open={link !== null}
        onOpenChange={(d) => (d.open ? undefined : exporter.send({ type: 'share closed' }))}
        placement="center"
        size="md"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>
                  <Trans>分享文档</Trans>
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text fontSize="sm" color="fg.muted">
                    <Trans>持有链接的人可以只读查看此文档，并可保存副本到自己的文档中。</Trans>
                  </Text>
                  <HStack>
                    <Input
                      readOnly
                      value={link ?? ''}
                      onFocus={(e) => e.currentTarget.select()}
                      aria-label={t`分享链接`}
                      data-testid="share-link"
                    />
                    <Button onClick={() => void copyLink()} data-testid="share-copy">
                      <Copy size={16} />
                      <Trans>复制</Trans>
                    </Button>
                  </HStack>
                </Stack>
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t`关闭`} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}

/** /editor?id= */
export default function DocumentEditorScreen() {
  const search = useSearch();
  const id = Number(new URLSearchParams(search).get('id'));
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <VStack py="20" data-testid="editor-no-id">
        <Text>
          <Trans>未指定文档</Trans>
        </Text>
      </VStack>
    );
  }
  return <DocumentView key={id} id={id} shareId={null} />;
}
