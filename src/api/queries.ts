// react-query options for the data spec §4 loads on login. Calls the server does not implement yet
// answer 501; loading them on login is silent, so nothing is shown for features that do not exist yet.
import type { QueryClient } from '@tanstack/react-query';
import { api, unwrap, type UnwrapOptions } from './client';
import type { components } from '../../openapi/schema';
import { portrait, userInfo } from './user';

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

/** The right types the SPA reads (spec §5), by name: on the wire they stay numbers. */
export const userRightTypes = { highSpeedText: 1, webMaxText: 32, aiChars: 512 } as const;

export function userInfoQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.userInfo, queryFn: () => userInfo(options) };
}
export function portraitQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.portrait, queryFn: () => portrait(options) };
}
export function dictionaryQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.dictionary, queryFn: () => unwrap(api.GET('/dict/v1/get_list'), options) };
}
export function invitationsQuery(options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.invitations,
    queryFn: () => unwrap(api.GET('/enterprise/user/v1/get_enterprise_invitation'), options),
  };
}
export function guideQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.guide, queryFn: () => unwrap(api.GET('/wizard/v1/show'), options) };
}
export function fineProofreadingRightQuery(options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.fineProofreadingRight,
    queryFn: () => unwrap(api.GET('/user/v1/check/user_fine_proofreading_right'), options),
  };
}
export function userRightQuery(userRightType: components['schemas']['UserRightType'], options?: UnwrapOptions) {
  return {
    queryKey: queryKeys.userRight(userRightType),
    queryFn: () =>
      unwrap(api.GET('/user/v1/get_user_right', { params: { query: { user_right_type: userRightType } } }), options),
  };
}
export function applicationsQuery(options?: UnwrapOptions) {
  return { queryKey: queryKeys.applications, queryFn: () => unwrap(api.GET('/enterprise/v1/get_user_apply'), options) };
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
