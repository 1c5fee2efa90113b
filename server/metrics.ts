/**
 * Counts kept by the process for GET /metrics (plugins/metrics.ts reads them at each scrape): the places that count
 * have no app at hand, and one process serves one app (tests build many apps in one process: they share these).
 */
/** External services whose failures operators want to see: SMS gateways, file storage, AI writing, speech. */
export type ProviderName = 'sms' | 'storage' | 'ai' | 'asr';

/** by check kind (team-metrics.ts CheckKind: text, api, document, ...) */
const checks = new Map<string, { count: number; chars: number }>();
const providerErrors = new Map<ProviderName, number>();

/** One finished check of `chars` characters (domain/teams/metrics.ts recordCheck calls it). */
export function countCheck(kind: string, chars: number): void {
  const entry = checks.get(kind) ?? { count: 0, chars: 0 };
  entry.count += 1;
  entry.chars += chars;
  checks.set(kind, entry);
}

/** A call to an external service that failed (not one the user's input made fail). */
export function countProviderError(provider: ProviderName): void {
  providerErrors.set(provider, (providerErrors.get(provider) ?? 0) + 1);
}

export function checkCounts(): Array<{ kind: string; count: number; chars: number }> {
  return [...checks].map(([kind, entry]) => ({ kind, ...entry }));
}

export function providerErrorCounts(): Array<{ provider: ProviderName; count: number }> {
  return [...providerErrors].map(([provider, count]) => ({ provider, count }));
}
