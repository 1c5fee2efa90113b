import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, CloseButton } from '@chakra-ui/react';
import { checkCurrentBrowser, type BrowserCheck } from '../browser';

/** The browser upgrade warning (spec §2, §9). `check` is injectable for tests. */
export function BrowserBanner({ check }: { check?: BrowserCheck }) {
  const { t } = useLingui();
  const [result] = useState(() => check ?? checkCurrentBrowser());
  const [dismissed, setDismissed] = useState(false);
  if (!result.outdated || dismissed) return null;
  return (
    <Alert.Root status="warning" borderRadius="0" data-testid="browser-warning">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>您的浏览器版本过低</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>
            部分功能可能无法正常使用。请升级到 Chrome 90、Edge 90、Firefox 80、Safari 13、Opera 75 或更新的版本。
          </Trans>
        </Alert.Description>
      </Alert.Content>
      <CloseButton size="sm" aria-label={t`关闭提示`} onClick={() => setDismissed(true)} />
    </Alert.Root>
  );
}
