import { UnitOfWork } from '../application/ports/unit-of-work.port';

/** No transaction at all: work runs as it is, and an after-commit effect at once. */
export class InlineUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  afterCommit(effect: () => unknown): void {
    void effect();
  }
}

/** A fake whose state a transaction can take back (the database's rows). */
export interface Transactional {
  /** Copies the state; the function restores the copy. */
  snapshot(): () => void;
}

/**
 * A unit of work over in-memory fakes: a failure inside the outermost `run` restores every
 * participant as it was, as a PostgreSQL ROLLBACK would, and drops its after-commit
 * effects; a success runs them. Nested runs join the outer one. A context's test kit joins
 * the fakes of the rows its module's adapters write in one transaction.
 */
export class SnapshotUnitOfWork extends UnitOfWork {
  private readonly participants: Transactional[] = [];
  private depth = 0;
  private effects: Array<() => unknown> = [];

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  join(...participants: Transactional[]): void {
    this.participants.push(...participants);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return work();
    const restores = this.participants.map((participant) => participant.snapshot());
    this.depth += 1;
    let result: T;
    try {
      result = await work();
    } catch (error) {
      for (const restore of restores) restore();
      this.effects = [];
      throw error;
    } finally {
      this.depth -= 1;
    }
    const committed = this.effects;
    this.effects = [];
    for (const effect of committed) await effect();
    return result;
  }

  afterCommit(effect: () => unknown): void {
    if (this.depth > 0) this.effects.push(effect);
    else void effect();
  }
}
