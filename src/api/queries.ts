// react-query options for the data spec §4 loads on login. Calls the server does not implement yet
// answer 501; loading them on login is silent, so nothing is shown for features that do not exist yet.
import type { QueryClient } from '@tanstack/react-query';
import { api, unwrap, type UnwrapOptions } from './client';
import { portrait, userInfo } from './user';

type Call = (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
// Calls added to the contract by later issues are reached through their plain paths.
const loose = api as unknown as { GET: Call };

function get(path: string, query?: Record<string, string | number>, options?: UnwrapOptions): Promise<unknown> {
  return unwrap(loose.GET(path, query ? { params: { query } } : {}), options);
}

export const queryKeys = {
  userInfo: ['user', 'info'] as const,
  portrait: ['user', 'portrait'] as const,
  dictionary: ['dict', 'list'] as const,
  invitations: ['enterprise', 'invitations'] as const,
  guide: ['wizard', 'show'] as const,
  fineProofreadingRight: ['user', 'fine-proofreading-right'] as const,
  userRight: (type: number) => ['user', 'right', type] as const,
  applications: ['enterprise', 'applications'] as const,
  rights: ['user', 'right'] as const,
  downloads: (num: number) => ['user', 'downloads', num] as const,
  sharing: ['user', 'sharing'] as const,
  apiKey: ['user', 'api-key'] as const,
};

export const userRightTypes = { highSpeedText: 1, webMaxText: 32 } as const;

export function userInfoQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.userInfo, queryFn: () => userInfo(options) };
}
export function portraitQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.portrait, queryFn: () => portrait(options) };
}
export function dictionaryQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.dictionary, queryFn: () => get('/dict/v1/get_list', undefined, options) };
}
export function invitationsQuery(options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.invitations,
    queryFn: () => get('/enterprise/user/v1/get_enterprise_invitation', undefined, options),
  };
}
export function guideQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.guide, queryFn: () => get('/wizard/v1/show', undefined, options) };
}
export function fineProofreadingRightQuery(options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.fineProofreadingRight,
    queryFn: () => get('/user/v1/check/user_fine_proofreading_right', undefined, options),
  };
}
export function userRightQuery(userRightType: number, options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.userRight(userRightType),
    queryFn: () => get('/user/v1/get_user_right', { user_right_type: userRightType }, options),
  };
}
export function applicationsQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.applications, queryFn: () => get('/enterprise/v1/get_user_apply', undefined, options) };
}

/** Spec §4 "login state set true": everything besides the user info, fetched in the background. */
export function signedInQueries() {
  const quiet = { silent: true };
  return [
    portraitQuery(quiet),
    dictionaryQuery(quiet),
    invitationsQuery(quiet),
    guideQuery(quiet),
    fineProofreadingRightQuery(quiet),
    userRightQuery(userRightTypes.highSpeedText, quiet),
    userRightQuery(userRightTypes.webMaxText, quiet),
    applicationsQuery(quiet),
  ];
}

/** Prefetches the signed-in data; failures (501 for features not built yet) stay silent. */
export async function prefetchSignedInData(queryClient: QueryClient | undefined): Promise<void> {
  const queries = signedInQueries();
  if (queryClient) {
    await Promise.all(queries.map((q) => queryClient.prefetchQuery(q as Parameters<QueryClient['prefetchQuery']>[0])));
    return;
  }
  await Promise.allSettled(queries.map((q) => q.queryFn()));
}
