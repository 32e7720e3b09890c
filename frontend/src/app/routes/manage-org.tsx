import { AllUsersPage } from '@/features/users/components/all-users-page';

export function Component() {
  return <AllUsersPage />;
}
