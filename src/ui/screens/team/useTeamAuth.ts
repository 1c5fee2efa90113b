import { useQuery } from '@tanstack/react-query';
import { teamAuth } from '../../../machines/teamCalls';

/**
 * The caller's team role and what it may do (GET /enterprise/v1/get_user_auth, the server's permission table),
 * read once for every tab of /team. `can` is false while it loads: buttons appear once the answer says so.
 */
export function useTeamAuth() {
  const auth = useQuery({ queryKey: ['enterprise', 'auth'], queryFn: () => teamAuth() });
  const permissions = auth.data?.permissions ?? [];
  return {
    pending: auth.isPending,
    role: auth.data?.role ?? null,
    can: (permission: string) => permissions.includes(permission),
    /** the members' roles the caller may act on, and the roles they may give (the server's tables) */
    actsOn: auth.data?.acts_on ?? [],
    grantable: auth.data?.grantable ?? [],
  };
}
