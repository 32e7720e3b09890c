/* The decimal helpers are shared (procurement writes the same amounts): src/lib/quantities.ts. */
export * from '@/lib/quantities';
