import { SnapshotUnitOfWork } from '@app/platform/testing';
import {
  InMemorySecurityEventRepository,
  InMemorySecurityNoticeRepository,
  InMemoryTrustedDeviceRepository,
} from './in-memory-account-security.fakes';
import { securityEventRepositoryContract } from './security-event-repository.contract';
import { securityNoticeRepositoryContract } from './security-notice-repository.contract';
import { trustedDeviceRepositoryContract } from './trusted-device-repository.contract';
import { RecordingUserSecurityLock } from './in-memory-user-security.fakes';
import { userSecurityLockContract } from './user-security-lock.contract';

/** The fakes the use-case specs run on behave as the real adapters' contracts say. */
let nextUserId = 1;
const newUserId = async () => nextUserId++;

securityEventRepositoryContract('InMemorySecurityEventRepository', () => {
  const unitOfWork = new SnapshotUnitOfWork();
  const events = new InMemorySecurityEventRepository();
  unitOfWork.join(events);
  return { events, unitOfWork, newUserId };
});

securityNoticeRepositoryContract('InMemorySecurityNoticeRepository', () => {
  const events = new InMemorySecurityEventRepository();
  return { events, notices: new InMemorySecurityNoticeRepository(events), newUserId };
});

trustedDeviceRepositoryContract('InMemoryTrustedDeviceRepository', () => ({
  devices: new InMemoryTrustedDeviceRepository(),
  newUserId,
}));

userSecurityLockContract('RecordingUserSecurityLock', () => {
  const unitOfWork = new SnapshotUnitOfWork();
  return { lock: new RecordingUserSecurityLock(unitOfWork), unitOfWork };
});
