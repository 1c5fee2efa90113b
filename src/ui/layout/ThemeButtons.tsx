import { useLingui } from '@lingui/react/macro';
import { Group, IconButton } from '@chakra-ui/react';
import { Moon, Sun } from 'lucide-react';
import { useThemeMode } from '../app-actor';

/** Spec §1: light and dark, switched with two buttons at the bottom right. */
export function ThemeButtons() {
  const { t } = useLingui();
  const { mode, choose } = useThemeMode();
  return (
    // a landmark of its own: every part of a page is in one (axe region), and it sits outside main
    <Group
      attached
      position="fixed"
      bottom="4"
      right="4"
      zIndex="sticky"
      bg="panel"
      borderRadius="full"
      boxShadow="md"
      as="aside"
      aria-label={t`主题`}
    >
      <IconButton
        aria-label={t`浅色模式`}
        aria-pressed={mode === 'light'}
        data-testid="theme-light"
        size="sm"
        borderRadius="full"
        variant={mode === 'light' ? 'solid' : 'ghost'}
        colorPalette={mode === 'light' ? 'blue' : 'gray'}
        onClick={() => choose('light')}
      >
        <Sun />
      </IconButton>
      <IconButton
        aria-label={t`深色模式`}
        aria-pressed={mode === 'dark'}
        data-testid="theme-dark"
        size="sm"
        borderRadius="full"
        variant={mode === 'dark' ? 'solid' : 'ghost'}
        colorPalette={mode === 'dark' ? 'blue' : 'gray'}
        onClick={() => choose('dark')}
      >
        <Moon />
      </IconButton>
    </Group>
  );
}
