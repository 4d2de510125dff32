import { DomainError } from '../domain/domain-error';
import { InlineUnitOfWork } from '../testing';
import { FixtureRegistry } from './fixture-registry.service';
import { FixtureLoader } from './ports/fixture-loader.port';
import { UnitOfWork } from './ports/unit-of-work.port';

class RecordingLoader extends FixtureLoader {
  constructor(
    readonly section: string,
    readonly order: number,
    private readonly log: string[],
  ) {
    super();
  }

  async load(rows: unknown[]) {
    this.log.push(this.section);
    return { count: rows.length, ids: [] };
  }
}

describe('FixtureRegistry', () => {
  it('loads sections in dependency order, whatever the file order', async () => {
    const log: string[] = [];
    const registry = new FixtureRegistry(new InlineUnitOfWork());
    registry.register(new RecordingLoader('contracts', 20, log));
    registry.register(new RecordingLoader('users', 10, log));
    const summary = await registry.load({ contracts: [{}, {}], users: [{}] });
    expect(log).toEqual(['users', 'contracts']);
    expect(summary).toEqual({ users: { count: 1, ids: [] }, contracts: { count: 2, ids: [] } });
  });

  it('rejects unknown sections and non-array sections before loading anything', async () => {
    const log: string[] = [];
    const registry = new FixtureRegistry(new InlineUnitOfWork());
    registry.register(new RecordingLoader('users', 10, log));
    await expect(registry.load({ users: [], widgets: [] })).rejects.toThrow(
      'Unknown fixture sections: widgets',
    );
    await expect(registry.load({ users: {} })).rejects.toThrow(
      "Fixture section 'users' must be an array",
    );
    await expect(registry.load([])).rejects.toBeInstanceOf(DomainError);
    expect(log).toEqual([]);
  });

  it('runs every section inside one unit of work', async () => {
    let runs = 0;
    const counting = new (class extends UnitOfWork {
      run<T>(work: () => Promise<T>): Promise<T> {
        runs += 1;
        return work();
      }

      afterCommit(effect: () => unknown): void {
        void effect();
      }
    })();
    const registry = new FixtureRegistry(counting);
    registry.register(new RecordingLoader('users', 10, []));
    registry.register(new RecordingLoader('teams', 11, []));
    await registry.load({ users: [], teams: [] });
    expect(runs).toBe(1);
  });
});
