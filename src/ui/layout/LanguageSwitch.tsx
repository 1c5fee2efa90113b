import { useLingui } from '@lingui/react/macro';
import { Box, HStack, NativeSelect } from '@chakra-ui/react';
import { Languages } from 'lucide-react';
import type { Locale } from '../../api/storage';
import { useLanguage } from '../app-actor';

// Each language is named in itself, so a reader finds theirs whatever the current language is. The names are short:
// the select is as wide as its longest option, and on a phone it shares the header with the title.
const AUTONYMS: Record<Locale, string> = { cn: '简体中文', en: 'English', hk: '繁體中文' };

export function LanguageSwitch() {
  const { t } = useLingui();
  const { locale, choose } = useLanguage();
  return (
    <HStack gap="1.5" color="fg.muted" flexShrink={0}>
      <Box display={{ base: 'none', md: 'block' }}>
        <Languages size={16} aria-hidden />
      </Box>
      <NativeSelect.Root size="sm" width="auto" variant="subtle">
        <NativeSelect.Field
          aria-label={t`界面语言`}
          data-testid="language-switch"
          value={locale}
          onChange={(e) => choose(e.currentTarget.value as Locale)}
        >
          {(Object.keys(AUTONYMS) as Locale[]).map((code) => (
            <option key={code} value={code} lang={code === 'en' ? 'en' : code === 'hk' ? 'zh-HK' : 'zh-CN'}>
              {AUTONYMS[code]}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </HStack>
  );
}
