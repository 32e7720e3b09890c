/* Shared with procurement's receipts: src/lib/idempotency.ts. */
export * from '@/lib/idempotency';
