import type { OrgUser } from '@/lib/api/types';
import { initialRequestState, type RequestState, type SetSlice } from '@/lib/slice';

export interface UsersSlice {
  /** The organisation's other accounts (All Users page). */
  users: RequestState<OrgUser[]>;
}

export interface UsersActions {
  addOrgUser: (user: OrgUser) => void;
  removeOrgUser: (id: OrgUser['id']) => void;
}

export function initialUsersSlice(): UsersSlice {
  return { users: initialRequestState<OrgUser[]>([]) };
}

export function usersActions(set: SetSlice<UsersSlice>): UsersActions {
  return {
    addOrgUser: (user) => set((s) => ({ users: { ...s.users, data: [...s.users.data, user] } })),

    removeOrgUser: (id) =>
      set((s) => ({ users: { ...s.users, data: s.users.data.filter((u) => u.id !== id) } })),
  };
}
