import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Avatar, Button, Menu, Portal, Text, VisuallyHidden } from '@chakra-ui/react';
import { ChevronDown, LogOut, UserRound } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { portraitQuery } from '../../api/queries';
import { useSession } from '../app-actor';
import { ConfirmDialog } from './ConfirmDialog';

/** The avatar from GET /user/portrait (an image behind the bearer token, so fetched, not linked). */
export function usePortraitUrl(uid: number | string | undefined): string | undefined {
  const { data } = useQuery({
    ...portraitQuery({ silent: true }),
    enabled: uid !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!(data instanceof Blob) || typeof URL.createObjectURL !== 'function') return;
    const objectUrl = URL.createObjectURL(data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [data]);
  return url;
}

export function UserMenu() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const portraitUrl = usePortraitUrl(user?.uid);
  const name = user?.name || user?.phone || '';
  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          {/* named by its content (label-content-name-mismatch): the hidden words, then the name it shows */}
          <Button variant="ghost" size="sm" px="2" data-testid="user-menu">
            <VisuallyHidden>
              <Trans>用户菜单</Trans>
            </VisuallyHidden>
            <Avatar.Root size="xs" aria-hidden>
              <Avatar.Fallback name={name} />
              {portraitUrl ? <Avatar.Image src={portraitUrl} alt="" /> : null}
            </Avatar.Root>
            <Text as="span" maxW="10rem" lineClamp={1} display={{ base: 'none', md: 'inline' }}>
              {name}
            </Text>
            <ChevronDown size={14} aria-hidden />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="12rem">
              <Menu.Item value="user" onSelect={() => navigate('/user')}>
                <UserRound size={16} aria-hidden />
                <Trans>个人中心</Trans>
              </Menu.Item>
              <Menu.Separator />
              <Menu.Item value="logout" color="fg.error" onSelect={() => setConfirming(true)} data-testid="logout">
                <LogOut size={16} aria-hidden />
                <Trans>退出登录</Trans>
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <LogoutConfirmDialog open={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}

/** "Log out?" confirmation shared by the user menu and the user page; confirming sends 'logout requested'. */
export function LogoutConfirmDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { status, send } = useSession();
  return (
    <ConfirmDialog
      open={open}
      title={<Trans>退出登录</Trans>}
      description={<Trans>确定要退出当前账号吗？</Trans>}
      destructive
      loading={status === 'loggingOut'}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        send({ type: 'logout requested' });
      }}
    />
  );
}
