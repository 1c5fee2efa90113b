import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Code, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Users } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { api, isApiError, unwrap } from '../../api/client';
import { queryKeys } from '../../api/queries';
import { teamOfSmsInvitation } from '../../machines/teamCalls';

const CODE_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

/** The invitation code of an SMS invitation link (`?sms_invitation_code=`, or `?code=` in short links). */
export function invitationCode(search: string): string | null {
  const query = new URLSearchParams(search);
  const code = (query.get('sms_invitation_code') ?? query.get('code') ?? '').trim();
  return CODE_PATTERN.test(code) ? code : null;
}

async function acceptInvitation(code: string) {
  return unwrap(
    api.GET('/enterprise/user/v1/join_enterprise_by_link', { params: { query: { sms_invitation_code: code } } }),
    { silent: true },
  );
}

/**
 * /sms_invite (spec §2, no side bar): the landing page of a team invitation sent by SMS. The main layout sends
 * a logged-out visitor to /login first; once logged in, the invited phone's owner accepts here.
 */
export default function SmsInvite() {
  const { t } = useLingui();
  const search = useSearch();
  const code = invitationCode(search);
  const queryClient = useQueryClient();
  // the team is named before the invitation is accepted
  const team = useQuery({
    queryKey: ['enterprise', 'sms-invitation', code],
    queryFn: () => teamOfSmsInvitation(code!),
    enabled: code !== null,
    staleTime: Infinity,
  });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(code!),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: queryKeys.invitations }),
      ]),
  });

  function failure(error: unknown): string {
    if (!isApiError(error)) return t`操作失败，请稍后再试`;
    switch (error.status) {
      case 403:
        return t`该邀请发给了另一个手机号，请用受邀的手机号登录后再打开此链接。`;
      case 404:
        return t`邀请已失效或不存在，请联系团队管理员重新邀请。`;
      case 409:
        return t`您已加入了一个团队，不能再加入其他团队。`;
      default:
        return error.message;
    }
  }

  return (
    <Box
      maxW="xl"
      mx="auto"
      mt={{ base: '4', md: '12' }}
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '6', md: '8' }}
      data-testid="sms-invite"
    >
      <Flex align="center" gap="3" mb="6">
        <Users aria-hidden />
        <Heading as="h2" size="lg">
          <Trans>团队邀请</Trans>
        </Heading>
      </Flex>
      {!code ? (
        <Alert.Root status="warning" data-testid="sms-invite-missing">
          <Alert.Indicator />
          <Alert.Title>
            <Trans>链接中没有有效的邀请码，请打开短信中的完整链接。</Trans>
          </Alert.Title>
        </Alert.Root>
      ) : accept.isSuccess ? (
        <Stack gap="4" data-testid="sms-invite-joined">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>已加入团队「{accept.data.name}」</Trans>
            </Alert.Title>
          </Alert.Root>
          <Button asChild colorPalette="blue" alignSelf="flex-start">
            <Link href="/team">
              <Trans>查看我的团队</Trans>
            </Link>
          </Button>
        </Stack>
      ) : (
        <Stack gap="5">
          {team.data ? (
            <Stack gap="1" data-testid="sms-invite-team">
              <Text fontSize="sm" color="fg.muted">
                <Trans>邀请您加入的团队</Trans>
              </Text>
              <Heading as="h3" size="md" data-testid="sms-invite-team-name">
                {team.data.name}
              </Heading>
              {team.data.admin_name ? (
                <Text fontSize="sm" color="fg.muted">
                  <Trans>
                    管理员：{team.data.admin_name} · 成员 {team.data.user_num ?? 0} 人
                  </Trans>
                </Text>
              ) : null}
            </Stack>
          ) : null}
          {team.isError ? (
            <Alert.Root status="error" data-testid="sms-invite-team-error">
              <Alert.Indicator />
              <Alert.Title>{failure(team.error)}</Alert.Title>
            </Alert.Root>
          ) : null}
          <Text>
            <Trans>您收到了一个加入团队的邀请。接受后，您将以团队成员的身份使用团队的权益和共享词库。</Trans>
          </Text>
          <Text fontSize="sm" color="fg.muted">
            <Trans>邀请码：</Trans> <Code data-testid="sms-invite-code">{code}</Code>
          </Text>
          {accept.isError ? (
            <Alert.Root status="error" data-testid="sms-invite-error">
              <Alert.Indicator />
              <Alert.Title>{failure(accept.error)}</Alert.Title>
            </Alert.Root>
          ) : null}
          <Flex gap="3" wrap="wrap">
            <Button
              colorPalette="blue"
              loading={accept.isPending}
              disabled={team.isPending}
              onClick={() => accept.mutate()}
              data-testid="sms-invite-accept"
            >
              <Trans>接受邀请</Trans>
            </Button>
            <Button asChild variant="ghost">
              <Link href="/">
                <Trans>暂不加入</Trans>
              </Link>
            </Button>
          </Flex>
        </Stack>
      )}
    </Box>
  );
}
