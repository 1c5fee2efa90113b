import { accountOperations } from './user/account';
import { profileOperations } from './user/profile';
import { systemOperations } from './system';
import type { Operation } from './types';

/** Handlers keyed by the contract's operationId; every other operation answers 501. */
export const operations: Record<string, Operation> = {
  ...systemOperations,
  ...accountOperations,
  ...profileOperations,
};

export const implementedOperations: readonly string[] = Object.keys(operations).sort();
