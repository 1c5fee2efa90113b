import { Trans, useLingui } from '@lingui/react/macro';
import type { UserInfo } from '../../api/user';
import { useAccountSwitch } from '../app-actor';
import { ConfirmDialog } from './ConfirmDialog';

/** The name, with the phone when the name alone does not tell the two accounts apart (none, or the same). */
export function accountLabel(user: UserInfo, other: UserInfo): string {
  const name = user.name.trim();
  if (name && name !== other.name.trim()) return name;
  return name ? `${name} (${user.phone})` : user.phone || user.login_id || String(user.uid);
}

/**
 * A link (`?token=`, a WeChat login) brought another account's login while one is signed in: switch only when the
 * user says so, else stay (the session machine holds the link's token meanwhile, unstored).
 */
export function AccountSwitchDialog() {
  const { t } = useLingui();
  const { open, current, linked, confirm, decline } = useAccountSwitch();
  const currentName = current && linked ? accountLabel(current, linked) : '';
  const linkedName = current && linked ? accountLabel(linked, current) : '';
  return (
    <ConfirmDialog
      open={open}
      title={t`切换账号？`}
      description={
        <span data-testid="account-switch">
          <Trans>
            当前：{currentName}，链接中的账号：{linkedName}
          </Trans>
        </span>
      }
      onConfirm={confirm}
      onCancel={decline}
    />
  );
}
