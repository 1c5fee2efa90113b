// A save refused for being over the plan's per-check limit (413 check.too_long): the document's re-check would be
// longer than one check may be. Said as it is, with an upgrade; never the quota dialog.
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CloseButton } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { DocumentEditorRef } from '../../../machines/documentEditor';
import { formatBalance } from '../../format/balance';

export function DocumentTooLong({ editor }: { editor: DocumentEditorRef }) {
  const { t, i18n } = useLingui();
  const tooLong = useSelector(editor, (s) => (s.matches({ ready: 'tooLong' }) ? s.context.tooLong : null));
  if (!tooLong) return null;
  const limit = formatBalance(i18n, tooLong.max, 'chars');
  const total = formatBalance(i18n, tooLong.total, 'chars');
  return (
    <Alert.Root status="warning" data-testid="document-too-long">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>单次最多校对 {limit}</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>改动后的文档有 {total}，没有保存。删减一些再保存，或升级会员，提高单次上限。</Trans>
        </Alert.Description>
      </Alert.Content>
      <Button asChild size="sm" variant="outline">
        <Link href="/upgrade" data-testid="document-too-long-upgrade">
          <Trans>升级会员</Trans>
        </Link>
      </Button>
      <CloseButton
        size="sm"
        aria-label={t`关闭`}
        onClick={() => editor.send({ type: 'too long dismissed' })}
        data-testid="document-too-long-dismiss"
      />
    </Alert.Root>
  );
}
