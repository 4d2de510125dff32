import { DomainError } from '../domain/domain-error';

/** The DomainError a promise rejects with (fails the test if it resolves or throws another). */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but the promise resolved');
}

/** The DomainError `fn` throws (fails the test if it returns or throws another). */
export function thrownBy(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but it returned');
}
