// Small shared pieces of the document screens: a job's status badge, sizes and dates.
import { Trans, useLingui } from '@lingui/react/macro';
import { translateNotice } from '../../notices';
import './notices';
import { Badge } from '@chakra-ui/react';
import type { JobStatus } from '../../../../openapi/socket-protocol';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const LOCALE_TAGS = { cn: 'zh-CN', en: 'en', hk: 'zh-HK' } as const;

export function formatDate(iso: string, locale: 'cn' | 'en' | 'hk'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(LOCALE_TAGS[locale] ?? 'zh-CN', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}

export function StatusBadge({ status, progress, error }: { status: JobStatus; progress: number; error?: string }) {
  const { i18n } = useLingui();
  switch (status) {
    case 'queued':
      return (
        <Badge colorPalette="gray" data-testid="document-status">
          <Trans>排队中</Trans>
        </Badge>
      );
    case 'running':
      return (
        <Badge colorPalette="blue" data-testid="document-status">
          <Trans>校对中 {progress}%</Trans>
        </Badge>
      );
    case 'done':
      return (
        <Badge colorPalette="green" data-testid="document-status">
          <Trans>已完成</Trans>
        </Badge>
      );
    case 'failed':
      return (
        <Badge
          colorPalette="red"
          data-testid="document-status"
          title={error ? translateNotice(i18n, error) : undefined}
        >
          <Trans>失败</Trans>
          {error ? `：${translateNotice(i18n, error)}` : ''}
        </Badge>
      );
    default:
      return (
        <Badge colorPalette="gray" data-testid="document-status">
          <Trans>已取消</Trans>
        </Badge>
      );
  }
}
