// The built-in word libraries (GET /user/get_word_library): each one switched on applies to the user's
// checks like their own entries, from the next check.
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Checkbox, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { selectWordLibraries, wordLibraries, type WordLibrary } from '../../../machines/dictCalls';
import { toaster } from '../../toaster';

export const LIBRARY_KEY = ['user', 'word-library'] as const;

export function LibraryChooser() {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const libraries = useQuery({ queryKey: LIBRARY_KEY, queryFn: wordLibraries });
  const select = useMutation({
    mutationFn: selectWordLibraries,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: LIBRARY_KEY });
      toaster.create({ type: 'success', title: t`词库设置已保存，下次检查生效`, duration: 3000, closable: true });
    },
  });
  const nameOf = (l: WordLibrary) => (i18n.locale === 'en' ? l.name_en : i18n.locale === 'hk' ? l.name_hk : l.name);
  const descriptionOf = (l: WordLibrary) =>
    i18n.locale === 'en' ? l.description_en : i18n.locale === 'hk' ? l.description_hk : l.description;
  const toggle = (l: WordLibrary, on: boolean) => {
    const ids = (libraries.data ?? []).filter((x) => (x.id === l.id ? on : x.selected)).map((x) => x.id);
    select.mutate(ids);
  };

  return (
    <Stack
      gap="4"
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '4', md: '6' }}
      data-testid="dict-libraries"
    >
      <Stack gap="1">
        <Heading as="h2" size="md">
          <Trans>行业词库</Trans>
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          <Trans>选中的词库与个人词库一样用于每次检查：标出领域内的常见错误写法，并且不再把领域术语报错。</Trans>
        </Text>
      </Stack>
      {libraries.isPending ? (
        <Skeleton h="24" />
      ) : libraries.isError ? (
        <Text color="red.fg">
          <Trans>词库列表加载失败，请刷新重试</Trans>
        </Text>
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          {libraries.data.map((l) => (
            <Checkbox.Root
              key={l.id}
              alignItems="flex-start"
              borderWidth="1px"
              borderRadius="lg"
              p="3"
              checked={l.selected}
              disabled={select.isPending}
              onCheckedChange={(e) => toggle(l, !!e.checked)}
              data-testid={`dict-library-${l.id}`}
              data-selected={l.selected ? 'true' : 'false'}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control mt="0.5" />
              <Stack gap="1" flex="1">
                <Checkbox.Label>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Text fontWeight="medium">{nameOf(l)}</Text>
                    <Badge size="sm" colorPalette="red" variant="subtle">
                      <Trans>错词 {l.wrong_count}</Trans>
                    </Badge>
                    {l.allowed_count ? (
                      <Badge size="sm" colorPalette="green" variant="subtle">
                        <Trans>允许词 {l.allowed_count}</Trans>
                      </Badge>
                    ) : null}
                  </Flex>
                </Checkbox.Label>
                <Text fontSize="xs" color="fg.muted">
                  {descriptionOf(l)}
                </Text>
              </Stack>
            </Checkbox.Root>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
