import { describe } from 'vitest';
import { describeOrphanContract } from '../../runtime/test/store/orphan-contract.ts';
import { openTestStore, pgUrl } from './pg-test-store.ts';

describe.skipIf(!pgUrl)('PostgreSQL', () => {
  describeOrphanContract('PostgresRunStore orphans', () => openTestStore(pgUrl!));
});
