// /rules (outside the main layout, spec §2): the user rules the site's operators wrote, shown as plain text (a line
// starting with "## " is a heading, a blank line ends a paragraph; never HTML). An operator edits them here.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Flex, Heading, HStack, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react';
import { ScrollText } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { notify } from '../../api/notify';
import { useSession } from '../app-actor';
import { StandaloneShell } from '../layout/StandaloneShell';
import { registerNoticeMessages, translateNotice } from '../notices';
import { msg } from '@lingui/core/macro';

const RULES_KEY = ['site', 'rules'] as const;
// the toast after saving, translated by the toaster (src/ui/notices.ts)
registerNoticeMessages([msg({ id: '用户规则已更新', message: '用户规则已更新' })]);
const RULES_MAX = 50_000;

/** Headings and paragraphs of the rules' text. */
export function rulesBlocks(text: string): Array<{ kind: 'heading' | 'paragraph'; text: string }> {
  const blocks: Array<{ kind: 'heading' | 'paragraph'; text: string }> = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (/^##\s+/.test(line)) {
      flush();
      blocks.push({ kind: 'heading', text: line.replace(/^##\s+/, '') });
    } else if (!line.trim()) flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

export default function Rules() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: RULES_KEY, queryFn: () => unwrap(api.GET('/site/v1/rules')) });
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (text: string) => unwrap(api.PUT('/admin/v1/rules', { body: { text } })),
    onSuccess: async () => {
      setDraft(null);
      notify({ status: 'success', title: '用户规则已更新' });
      await queryClient.invalidateQueries({ queryKey: RULES_KEY });
    },
  });
  const operator = user?.role === 'root';
  return (
    <StandaloneShell maxW="3xl">
      <Box as="main" bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '6', md: '8' }} data-testid="rules">
        <Flex align="center" gap="3" mb="6">
          <ScrollText aria-hidden />
          <Heading as="h1" size="lg">
            <Trans>用户规则</Trans>
          </Heading>
          <Box flex="1" />
          {operator && draft === null && rules.data ? (
            <Button size="sm" variant="outline" onClick={() => setDraft(rules.data.text)} data-testid="rules-edit">
              <Trans>编辑</Trans>
            </Button>
          ) : null}
        </Flex>
        {rules.isError ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>用户规则加载失败，请稍后刷新重试。</Trans>
            </Alert.Title>
          </Alert.Root>
        ) : !rules.data ? (
          <Skeleton h="48" />
        ) : draft !== null ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (draft.trim()) save.mutate(draft);
            }}
          >
            <Stack gap="3">
              <Text fontSize="sm" color="fg.muted">
                <Trans>以「## 」开头的一行是标题，空行分段。</Trans>
              </Text>
              <Textarea
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                rows={20}
                maxLength={RULES_MAX}
                aria-label={t`用户规则`}
                data-testid="rules-text"
              />
              {save.error ? (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{translateNotice(i18n, save.error.message)}</Alert.Title>
                </Alert.Root>
              ) : null}
              <HStack justify="flex-end">
                <Button variant="outline" onClick={() => setDraft(null)}>
                  <Trans>取消</Trans>
                </Button>
                <Button
                  type="submit"
                  colorPalette="blue"
                  loading={save.isPending}
                  disabled={!draft.trim()}
                  data-testid="rules-save"
                >
                  <Trans>保存</Trans>
                </Button>
              </HStack>
            </Stack>
          </form>
        ) : (
          <Stack gap="4" data-testid="rules-body">
            {rulesBlocks(rules.data.text).map((block, i) =>
              block.kind === 'heading' ? (
                <Heading key={i} as="h2" size="md" mt={i ? '2' : '0'}>
                  {block.text}
                </Heading>
              ) : (
                <Text key={i} whiteSpace="pre-wrap" lineHeight="tall">
                  {block.text}
                </Text>
              ),
            )}
            {rules.data.updated_at ? (
              <Text fontSize="sm" color="fg.muted">
                <Trans>更新于 {new Date(rules.data.updated_at).toLocaleDateString()}</Trans>
              </Text>
            ) : null}
          </Stack>
        )}
      </Box>
    </StandaloneShell>
  );
}
