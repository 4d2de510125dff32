import { PlatformError } from '../domain/domain-error';
import { FixtureLoader, FixtureSummary } from './ports/fixture-loader.port';
import { UnitOfWork } from './ports/unit-of-work.port';

/** Collects the fixture loaders contributed by each context and runs them in order. */
export class FixtureRegistry {
  private readonly loaders = new Map<string, FixtureLoader>();

  constructor(private readonly unitOfWork: UnitOfWork) {}

  register(loader: FixtureLoader): void {
    this.loaders.set(loader.section, loader);
  }

  sections(): string[] {
    return [...this.loaders.keys()];
  }

  async load(document: unknown): Promise<Record<string, FixtureSummary>> {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw new PlatformError('bad_request', 'The fixtures file must hold a JSON object');
    }
    const sections = document as Record<string, unknown>;
    const unknown = Object.keys(sections).filter((key) => !this.loaders.has(key));
    if (unknown.length > 0) {
      throw new PlatformError(
        'bad_request',
        `Unknown fixture sections: ${unknown.join(', ')} (known: ${this.sections().join(', ')})`,
      );
    }
    const ordered = [...this.loaders.values()].sort((a, b) => a.order - b.order);
    return this.unitOfWork.run(async () => {
      const summary: Record<string, FixtureSummary> = {};
      for (const loader of ordered) {
        const rows = sections[loader.section];
        if (rows === undefined) continue;
        if (!Array.isArray(rows)) {
          throw new PlatformError(
            'bad_request',
            `Fixture section '${loader.section}' must be an array`,
          );
        }
        summary[loader.section] = await loader.load(rows);
      }
      return summary;
    });
  }
}
