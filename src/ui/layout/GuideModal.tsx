// The guide modal (spec §2): the guide machine's snapshot rendered as a dialog. Arrow keys go back and forth, Esc
// skips; the picture follows the theme. The built-in slides read in the interface's language; slides an operator
// wrote show as written.
import { useEffect, useMemo } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, CloseButton, Dialog, Flex, HStack, Image, List, Portal } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { guideQuery, queryKeys } from '../../api/queries';
import { inspectOptions } from '../../machines/inspect';
import { liveGuide } from '../../machines/live-guide';
import type { Guide } from '../../machines/guide';
import { useThemeMode } from '../app-actor';

type Slide = Guide['slides'][number];

/** The built-in slides in the reader's language, used while a slide still has its built-in title. */
const BUILT_IN: Record<string, { cn: string; title: MessageDescriptor; bullets: MessageDescriptor[] }> = {
  setup: {
    cn: '欢迎使用智能校对工作台',
    title: msg`欢迎使用智能校对工作台`,
    bullets: [
      msg`在「我的词库」里添加常用词和易错词，校对时自动生效`,
      msg`右上角切换界面语言，右下角切换浅色和深色主题`,
    ],
  },
  text: {
    cn: '文本校对',
    title: msg`文本校对`,
    bullets: [
      msg`粘贴或输入文字，点击「开始校对」`,
      msg`错别字、标点、敏感词等问题逐条列出，一键采纳或忽略`,
      msg`Alt+↓ / Alt+↑ 在问题之间切换，Alt+Enter 采纳`,
    ],
  },
  link: {
    cn: '网页校对',
    title: msg`网页校对`,
    bullets: [msg`输入网址，检查整个网页或网站的错别字`, msg`结果按页面列出，可导出报告`],
  },
  ai: {
    cn: 'AI 写作助手',
    title: msg`AI 写作助手`,
    bullets: [msg`续写、润色、缩写、扩写，或按公文格式起草通知、请示、报告和函`, msg`生成的文字可一键校对，再插入草稿`],
  },
  pdf: {
    cn: 'PDF 校对',
    title: msg`PDF 校对`,
    bullets: [msg`上传 PDF，文字页直接读取，扫描页自动识别文字`, msg`问题在页面上标出位置，可导出带批注的 PDF`],
  },
};

function useSlideText(slide: Slide | undefined) {
  const { i18n } = useLingui();
  if (!slide) return { title: '', bullets: [] as string[] };
  const known = BUILT_IN[slide.id];
  if (known && known.cn === slide.title && known.bullets.length === slide.bullets.length)
    return { title: i18n._(known.title), bullets: known.bullets.map((b) => i18n._(b)) };
  return { title: slide.title, bullets: slide.bullets };
}

export function GuideModal() {
  const { t } = useLingui();
  const logic = useMemo(() => liveGuide(), []);
  const actor = useActorRef(logic, inspectOptions());
  const guide = useQuery({ ...guideQuery({ silent: true }), staleTime: Number.POSITIVE_INFINITY });
  useEffect(() => {
    if (guide.data) actor.send({ type: 'guide loaded', guide: guide.data });
  }, [guide.data, actor]);
  // finished or skipped: the kept answer says so too, so the layout mounted again (after /rules, say) does not
  // open it a second time
  const queryClient = useQueryClient();
  useEffect(() => {
    const subscription = actor.subscribe((s) => {
      if (!s.matches('closed') || !s.context.guide) return;
      queryClient.setQueryData<Guide>(queryKeys.guide, (g) => (g && g.show ? { ...g, show: false } : g));
    });
    return () => subscription.unsubscribe();
  }, [actor, queryClient]);
  const open = useSelector(actor, (s) => s.matches('open'));
  const index = useSelector(actor, (s) => s.context.index);
  const slides = useSelector(actor, (s) => s.context.guide?.slides ?? []);
  const slide = slides[index];
  const text = useSlideText(slide);
  const { mode } = useThemeMode();
  const last = index === slides.length - 1;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') actor.send({ type: 'next' });
      else if (e.key === 'ArrowLeft') actor.send({ type: 'previous' });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, actor]);

  const picture = slide?.images?.[mode] ?? slide?.images?.light ?? slide?.images?.dark;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => (d.open ? undefined : actor.send({ type: 'skip' }))}
      closeOnInteractOutside={false}
      placement="center"
      size="lg"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="guide-dialog" data-slide={slide?.id} data-index={index}>
            <Dialog.Header>
              <Dialog.Title>{text.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {slide?.video ? (
                <Box asChild w="full" borderRadius="md">
                  <video src={slide.video} controls data-testid="guide-video" />
                </Box>
              ) : picture ? (
                <Image
                  src={picture}
                  alt={text.title}
                  w="full"
                  borderRadius="md"
                  borderWidth="1px"
                  data-testid="guide-image"
                  data-theme={mode}
                />
              ) : null}
              <List.Root mt="4" gap="1.5" ps="5">
                {text.bullets.map((b) => (
                  <List.Item key={b}>{b}</List.Item>
                ))}
              </List.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Flex w="full" align="center" gap="2">
                <Button variant="ghost" size="sm" onClick={() => actor.send({ type: 'skip' })} data-testid="guide-skip">
                  <Trans>跳过</Trans>
                </Button>
                <HStack gap="1.5" flex="1" justify="center" aria-label={t`第 ${index + 1} 步，共 ${slides.length} 步`}>
                  {slides.map((s, i) => (
                    <Box
                      key={s.id}
                      as="button"
                      aria-label={t`第 ${i + 1} 步`}
                      boxSize="2"
                      borderRadius="full"
                      bg={i === index ? 'blue.solid' : 'border'}
                      onClick={() => actor.send({ type: 'go to', index: i })}
                    />
                  ))}
                </HStack>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={index === 0}
                  onClick={() => actor.send({ type: 'previous' })}
                  data-testid="guide-previous"
                >
                  <Trans>上一步</Trans>
                </Button>
                <Button
                  colorPalette="blue"
                  size="sm"
                  onClick={() => actor.send({ type: 'next' })}
                  data-testid="guide-next"
                >
                  {last ? <Trans>完成</Trans> : <Trans>下一步</Trans>}
                </Button>
              </Flex>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`跳过引导`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
