import { NETWORK_ERROR_MESSAGE } from '@/lib/api/call-api';

/** Every text the All Users page shows for an outcome (spec §5, §8), in one place. */
export const userMessages = {
  deleted: 'User Deleted Successfully',
  deleteFailed: 'Failed to delete user.',
  confirmDelete: 'Are you sure you want to delete this user?',
  added: 'User Added Successfully!',
  limitReached: 'You have reached the limit to add users.',
  forbidden: 'You do not have permission to perform this action.',
  unexpected: 'An unexpected error occurred. Please try again.',
  network: NETWORK_ERROR_MESSAGE,
  invalidEmail: 'Invalid Email format.',
  passwordUpdated: 'Password updated successfully',
  passwordFailed: 'Failed to update password',
} as const;

/** The server's text when an organisation is full (spec §8). */
export const SERVER_USER_LIMIT_ERROR = 'You have reached limit to add users.';
