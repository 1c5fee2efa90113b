// The operators' guide editor (shown on /user to accounts with role root): the guide's version and slides as JSON,
// saved with PUT /admin/v1/guide (a new version shows the guide again to everyone) or back to the built-in one.
// The admin CLI does the same (`admin guide …`).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Box, Button, Flex, Heading, HStack, Text, Textarea } from '@chakra-ui/react';
import { Presentation } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { operations } from '../../../../openapi/schema';
import { api, unwrap } from '../../../api/client';
import { notify } from '../../../api/notify';
import { queryKeys } from '../../../api/queries';
import { translateNotice } from '../../notices';

type GuideBody = operations['putAdminV1Guide']['requestBody']['content']['application/json'];
const KEY = ['admin', 'guide'] as const;

export function GuideAdmin() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const guide = useQuery({ queryKey: KEY, queryFn: () => unwrap(api.GET('/admin/v1/guide')) });
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const done = async (title: string) => {
    setDraft(null);
    notify({ status: 'success', title });
    await queryClient.invalidateQueries({ queryKey: KEY });
    await queryClient.invalidateQueries({ queryKey: queryKeys.guide });
  };
  const save = useMutation({
    mutationFn: (body: GuideBody) => unwrap(api.PUT('/admin/v1/guide', { body })),
    onSuccess: () => done(t`引导已更新`),
  });
  const reset = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/guide')),
    onSuccess: () => done(t`引导已恢复为默认`),
  });
  const text = draft ?? (guide.data ? JSON.stringify({ ver: guide.data.ver, slides: guide.data.slides }, null, 2) : '');
  const submit = () => {
    let parsed: GuideBody;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      setProblem(t`不是有效的 JSON：${error instanceof Error ? error.message : ''}`);
      return;
    }
    setProblem(null);
    save.mutate(parsed);
  };
  const error = problem ?? (save.error ? translateNotice(i18n, save.error.message) : null);
  return (
    <Box bg="panel" borderWidth="1px" borderRadius="xl" p={{ base: '5', md: '6' }} data-testid="guide-admin">
      <Flex align="center" gap="2" mb="2" wrap="wrap">
        <Presentation size={18} aria-hidden />
        <Heading as="h3" size="md">
          <Trans>新手引导</Trans>
        </Heading>
        {guide.data ? (
          <Badge size="sm" colorPalette={guide.data.custom ? 'blue' : 'gray'}>
            {guide.data.custom ? t`自定义 ${guide.data.ver}` : t`内置 ${guide.data.ver}`}
          </Badge>
        ) : null}
      </Flex>
      <Text fontSize="sm" color="fg.muted" mb="3">
        <Trans>
          改版本号（如 001.001.005）后，所有人会再看到一次引导。图片和视频须是本站的路径，例如
          /workbench/guide/text-light.jpg。
        </Trans>
      </Text>
      <Textarea
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        rows={12}
        fontFamily="mono"
        fontSize="xs"
        aria-label={t`引导内容（JSON）`}
        data-testid="guide-json"
      />
      {error ? (
        <Alert.Root status="error" size="sm" mt="3">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      ) : null}
      <HStack justify="flex-end" mt="3">
        <Button
          size="sm"
          variant="outline"
          disabled={!guide.data?.custom}
          loading={reset.isPending}
          onClick={() => reset.mutate()}
          data-testid="guide-reset"
        >
          <Trans>恢复默认</Trans>
        </Button>
        <Button size="sm" colorPalette="blue" loading={save.isPending} onClick={submit} data-testid="guide-save">
          <Trans>保存</Trans>
        </Button>
      </HStack>
    </Box>
  );
}
