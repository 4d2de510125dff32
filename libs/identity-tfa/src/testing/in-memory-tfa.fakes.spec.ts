import { ManualClock, SnapshotUnitOfWork } from '@app/platform/testing';
import { backupCodeRepositoryContract } from './backup-code-repository.contract';
import { challengeStoreContract } from './challenge-store.contract';
import {
  InMemoryBackupCodeRepository,
  InMemoryChallengeStore,
  InMemoryTfaMethodRepository,
  InMemoryVerificationLedger,
} from './in-memory-tfa.fakes';
import { tfaMethodRepositoryContract } from './tfa-method-repository.contract';
import { verificationLedgerContract } from './verification-ledger.contract';

/** The fakes the use-case specs run on behave as the real adapters' contracts say. */
let nextUserId = 1;
const newUserId = async () => nextUserId++;

challengeStoreContract('InMemoryChallengeStore', () => {
  const store = new InMemoryChallengeStore();
  return { store, expire: async (key) => store.drop(key) };
});

tfaMethodRepositoryContract('InMemoryTfaMethodRepository', () => ({
  methods: new InMemoryTfaMethodRepository(new ManualClock()),
  newUserId,
}));

backupCodeRepositoryContract('InMemoryBackupCodeRepository', () => ({
  backupCodes: new InMemoryBackupCodeRepository(),
  newUserId,
}));

verificationLedgerContract('InMemoryVerificationLedger', () => {
  const unitOfWork = new SnapshotUnitOfWork();
  const ledger = new InMemoryVerificationLedger(unitOfWork);
  unitOfWork.join(ledger);
  return { ledger, unitOfWork, newUserId };
});
