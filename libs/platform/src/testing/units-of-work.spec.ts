import { SnapshotUnitOfWork, Transactional } from './units-of-work';

class Counter implements Transactional {
  value = 0;
  snapshot() {
    const value = this.value;
    return () => {
      this.value = value;
    };
  }
}

describe('SnapshotUnitOfWork', () => {
  it('takes back every participant and drops the after-commit effects when the work fails', async () => {
    const uow = new SnapshotUnitOfWork();
    const [a, b] = [new Counter(), new Counter()];
    uow.join(a, b);
    const effects: string[] = [];
    await expect(
      uow.run(async () => {
        a.value = 1;
        await uow.run(async () => {
          b.value = 2;
          uow.afterCommit(() => effects.push('inner'));
        });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect([a.value, b.value, effects]).toEqual([0, 0, []]);
  });

  it('keeps the changes and runs the effects, in order, once the outermost run commits', async () => {
    const uow = new SnapshotUnitOfWork();
    const counter = new Counter();
    uow.join(counter);
    const effects: string[] = [];
    await uow.run(async () => {
      counter.value = 3;
      uow.afterCommit(() => effects.push('first'));
      await uow.run(async () => uow.afterCommit(() => effects.push('second')));
      expect([uow.inTransaction, effects]).toEqual([true, []]);
    });
    expect([counter.value, effects, uow.inTransaction]).toEqual([3, ['first', 'second'], false]);
  });
});
