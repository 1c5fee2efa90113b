// The keyboard shortcut overview, opened with `?` when the focus is not in a text field. It lists only the keys the
// code handles: the finding review (src/ui/findings/useFindingReview.ts), the document compare (DiffView), the PDF
// pages and the editor's save (their extraKey), the guide (GuideModal), the dictionary's edit row and the image paste.
import { useEffect, useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CloseButton, Dialog, Flex, Heading, HStack, Kbd, Portal, Stack, Text } from '@chakra-ui/react';

interface Shortcut {
  /** Alternatives, each a key combination ("Alt" "↓"). */
  keys: string[][];
  what: MessageDescriptor;
}

interface ShortcutGroup {
  title: MessageDescriptor;
  items: Shortcut[];
}

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: msg`通用`,
    items: [
      { keys: [['?']], what: msg`打开快捷键一览` },
      { keys: [['Esc']], what: msg`关闭对话框或弹出层` },
      { keys: [['Tab']], what: msg`页面的第一个焦点：跳到主要内容` },
    ],
  },
  {
    title: msg`校对结果（文本、网页、文档、PDF、图片、音视频）`,
    items: [
      { keys: [['Alt', '↓'], ['J']], what: msg`下一处问题` },
      { keys: [['Alt', '↑'], ['K']], what: msg`上一处问题` },
      { keys: [['Alt', 'Enter']], what: msg`采纳当前建议` },
      { keys: [['Alt', 'Backspace'], ['X']], what: msg`忽略当前问题` },
    ],
  },
  {
    title: msg`文档与 PDF`,
    items: [
      {
        keys: [
          ['Ctrl', 'S'],
          ['⌘', 'S'],
        ],
        what: msg`保存文档（文档详情）`,
      },
      { keys: [['PageUp'], ['PageDown']], what: msg`上一页 / 下一页（PDF 详情）` },
    ],
  },
  {
    title: msg`文档对比`,
    items: [
      { keys: [['Alt', '↓'], ['J']], what: msg`下一处改动` },
      { keys: [['Alt', '↑'], ['K']], what: msg`上一处改动` },
    ],
  },
  {
    title: msg`其他`,
    items: [
      { keys: [['←'], ['→']], what: msg`使用引导：上一步 / 下一步（Esc 跳过）` },
      { keys: [['Enter'], ['Esc']], what: msg`词库编辑行：保存 / 取消` },
      { keys: [['Ctrl', 'V']], what: msg`图片校对：粘贴图片` },
    ],
  },
];

/** Keys typed into a field are text, not shortcuts. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable;
}

function Keys({ combo }: { combo: string[] }) {
  return (
    <HStack gap="1">
      {combo.map((key) => (
        <Kbd key={key} size="sm">
          {key}
        </Kbd>
      ))}
    </HStack>
  );
}

export function ShortcutHelp() {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typingIn(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={(d) => setOpen(d.open)} placement="center" size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="shortcut-help">
            <Dialog.Header>
              <Dialog.Title>{t`键盘快捷键`}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="5">
                {SHORTCUT_GROUPS.map((group) => (
                  <Stack as="section" key={group.title.id} gap="2">
                    <Heading as="h3" size="sm">
                      {i18n._(group.title)}
                    </Heading>
                    <Stack as="dl" gap="1.5">
                      {group.items.map((item) => (
                        <Flex key={item.what.id} justify="space-between" gap="4" wrap="wrap" data-testid="shortcut">
                          <Text as="dt" fontSize="sm">
                            {i18n._(item.what)}
                          </Text>
                          <HStack as="dd" gap="2" fontSize="sm" color="fg.muted">
                            {item.keys.map((combo, i) => (
                              <HStack key={combo.join('+')} gap="2">
                                {i ? t`或` : null}
                                <Keys combo={combo} />
                              </HStack>
                            ))}
                          </HStack>
                        </Flex>
                      ))}
                    </Stack>
                  </Stack>
                ))}
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`关闭`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
