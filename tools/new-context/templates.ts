import { ContextNames } from './names';

/** A file the generator writes: its path from the repository root, and its text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/**
 * The skeleton of a context, as docs/architecture.md lays one out: every layer with one
 * working example in it (an entity, a use case, a port with its fake, its PostgreSQL adapter
 * and their contract, a migration, a route with its permission and rate limit), and the
 * tests of each. `migrationId` is the first id of the context's own migration range.
 */
export function contextFiles(names: ContextNames, migrationId: number): GeneratedFile[] {
  const { context: c, entity: e, table } = names;
  const lib = `libs/${c.kebab}/src`;
  const file = (path: string, text: string): GeneratedFile => ({
    path,
    text: `${text.trim()}\n`,
  });
  const errorClass = `${c.pascal}Error`;
  const errors = `${c.upper}_ERRORS`;
  const invalidName = `${e.snake}_name_invalid`;
  const repository = `${e.pascal}Repository`;
  const fake = `InMemory${e.pascal}Repository`;
  const useCase = `Create${e.pascal}UseCase`;
  const contract = `${e.camel}RepositoryContract`;
  const bucket = `${c.snake}_create`;
  const route = `api.${c.snake}.create`;
  const kit = `${c.camel}Kit`;

  return [
    file(
      `${lib}/index.ts`,
      `
export { ${c.pascal}Module } from './${c.kebab}.module';
`,
    ),
    file(
      `${lib}/${c.kebab}.module.ts`,
      `
import { Module } from '@nestjs/common';
import { ErrorCatalog, RateLimitRegistry } from '@app/platform';
import { ${useCase} } from './application/create-${e.kebab}.use-case';
import { ${repository} } from './application/ports/${e.kebab}.repository.port';
import { ${errors} } from './domain/errors';
import { ${c.pascal}Controller } from './http/${c.kebab}.controller';
import { ${c.upper}_RATE_LIMITS } from './http/rate-limits';
import { Postgres${repository} } from './infrastructure/persistence/postgres-${e.kebab}.repository';

/** ${c.pascal}: the ${e.words}s of a user. */
@Module({
  controllers: [${c.pascal}Controller],
  providers: [{ provide: ${repository}, useClass: Postgres${repository} }, ${useCase}],
})
export class ${c.pascal}Module {
  constructor(errors: ErrorCatalog, rateLimits: RateLimitRegistry) {
    errors.register(${errors});
    rateLimits.register(${c.upper}_RATE_LIMITS);
  }
}
`,
    ),
    file(
      `${lib}/domain/errors.ts`,
      `
import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const ${errors} = defineErrors({
  ${invalidName}: { status: 400 },
});

export type ${c.pascal}ErrorCode = keyof typeof ${errors} | PlatformErrorCode;

/** The ${c.words} context's one error class: \`throw new ${errorClass}(code, message, details?)\`. */
export class ${errorClass} extends DomainError<${c.pascal}ErrorCode> {}
`,
    ),
    file(
      `${lib}/domain/${e.kebab}.ts`,
      `
/** A ${e.words}: something a user owns, by name. */
export interface ${e.pascal} {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly createdAt: Date;
}

export const ${e.upper}_NAME_MAX_LENGTH = 100;

/** Why \`name\` cannot name a ${e.words}, or null when it can. */
export function ${e.camel}NameProblem(name: string): string | null {
  if (name.trim().length === 0) return 'name must not be empty';
  if (name.length > ${e.upper}_NAME_MAX_LENGTH)
    return \`name must be at most \${${e.upper}_NAME_MAX_LENGTH} characters\`;
  // eslint-disable-next-line no-control-regex
  if (/[\\u0000-\\u001f\\u007f]/.test(name)) return 'name must not contain control characters';
  return null;
}
`,
    ),
    file(
      `${lib}/domain/${e.kebab}.spec.ts`,
      `
import { ${e.upper}_NAME_MAX_LENGTH, ${e.camel}NameProblem } from './${e.kebab}';

describe('${e.camel}NameProblem', () => {
  it('accepts a name of printable characters up to the maximum length', () => {
    expect(${e.camel}NameProblem('first')).toBeNull();
    expect(${e.camel}NameProblem('x'.repeat(${e.upper}_NAME_MAX_LENGTH))).toBeNull();
  });

  it('names the first rule a name breaks', () => {
    expect(${e.camel}NameProblem('  ')).toBe('name must not be empty');
    expect(${e.camel}NameProblem('x'.repeat(${e.upper}_NAME_MAX_LENGTH + 1))).toBe(
      \`name must be at most \${${e.upper}_NAME_MAX_LENGTH} characters\`,
    );
    expect(${e.camel}NameProblem('a\\nb')).toBe('name must not contain control characters');
  });
});
`,
    ),
    file(
      `${lib}/application/ports/${e.kebab}.repository.port.ts`,
      `
import { ${e.pascal} } from '../../domain/${e.kebab}';

export interface New${e.pascal} {
  userId: number;
  name: string;
  createdAt: Date;
}

export abstract class ${repository} {
  /** Stores a new ${e.words} under a fresh id. */
  abstract insert(${e.camel}: New${e.pascal}): Promise<${e.pascal}>;

  /** The user's ${e.words}s, oldest first. */
  abstract listByUser(userId: number): Promise<${e.pascal}[]>;
}
`,
    ),
    file(
      `${lib}/application/create-${e.kebab}.use-case.ts`,
      `
import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { ${e.pascal}, ${e.camel}NameProblem } from '../domain/${e.kebab}';
import { ${errorClass} } from '../domain/errors';
import { ${repository} } from './ports/${e.kebab}.repository.port';

export interface Create${e.pascal}Command {
  userId: number;
  name: string;
}

/** Creates a ${e.words} owned by the caller. */
@Injectable()
export class ${useCase} {
  constructor(
    private readonly ${e.camel}s: ${repository},
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: Create${e.pascal}Command): Promise<${e.pascal}> {
    const problem = ${e.camel}NameProblem(command.name);
    if (problem) throw new ${errorClass}('${invalidName}', problem);
    return this.uow.run(() =>
      this.${e.camel}s.insert({
        userId: command.userId,
        name: command.name,
        createdAt: this.clock.now(),
      }),
    );
  }
}
`,
    ),
    file(
      `${lib}/application/create-${e.kebab}.use-case.spec.ts`,
      `
import { ${kit} } from '../testing/${c.kebab}-kit';

describe('${useCase}', () => {
  const OWNER = 7;

  it("stores the caller's ${e.words} with the current time and answers it", async () => {
    const { create, ${e.camel}s, clock } = ${kit}();
    const created = await create.execute({ userId: OWNER, name: 'first' });
    expect(created).toEqual({
      id: expect.any(Number),
      userId: OWNER,
      name: 'first',
      createdAt: new Date(clock.nowMs()),
    });
    expect(await ${e.camel}s.listByUser(OWNER)).toEqual([created]);
  });

  it('refuses a name the domain refuses, storing nothing', async () => {
    const { create, ${e.camel}s } = ${kit}();
    await expect(create.execute({ userId: OWNER, name: ' ' })).rejects.toMatchObject({
      code: '${invalidName}',
      message: 'name must not be empty',
    });
    expect(await ${e.camel}s.listByUser(OWNER)).toEqual([]);
  });

  it('stores nothing when its unit of work fails after the insert', async () => {
    const { create, ${e.camel}s } = ${kit}();
    const insert = ${e.camel}s.insert.bind(${e.camel}s);
    ${e.camel}s.insert = async (${e.camel}) => {
      await insert(${e.camel});
      throw new Error('the connection went away');
    };
    await expect(create.execute({ userId: OWNER, name: 'first' })).rejects.toThrow(
      'the connection went away',
    );
    expect(await ${e.camel}s.listByUser(OWNER)).toEqual([]);
  });
});
`,
    ),
    file(
      `${lib}/testing/in-memory-${e.kebab}s.ts`,
      `
import { Transactional } from '@app/platform/testing';
import { ${repository}, New${e.pascal} } from '../application/ports/${e.kebab}.repository.port';
import { ${e.pascal} } from '../domain/${e.kebab}';

/**
 * The rows as a map; a failed unit of work over fakes (SnapshotUnitOfWork) takes them back.
 * Ids are not taken back, as a PostgreSQL identity's are not.
 */
export class ${fake} extends ${repository} implements Transactional {
  readonly rows = new Map<number, ${e.pascal}>();
  private sequence = 1;

  snapshot(): () => void {
    const rows = [...this.rows];
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async insert(${e.camel}: New${e.pascal}): Promise<${e.pascal}> {
    const stored = { id: this.sequence++, ...${e.camel} };
    this.rows.set(stored.id, stored);
    return { ...stored };
  }

  async listByUser(userId: number): Promise<${e.pascal}[]> {
    return [...this.rows.values()]
      .filter((${e.camel}) => ${e.camel}.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((${e.camel}) => ({ ...${e.camel} }));
  }
}
`,
    ),
    file(
      `${lib}/testing/${e.kebab}-repository.contract.ts`,
      `
import { ${repository} } from '../application/ports/${e.kebab}.repository.port';
import { test${e.pascal} } from './${c.kebab}-kit';

/** What the contract runs against: a repository and two users. */
export interface ${e.pascal}RepositorySubject {
  repository: ${repository};
  owner: number;
  stranger: number;
}

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL, so
 * the fake the use-case tests rely on keeps to what the real repository does
 * (docs/architecture.md "Where do tests go?").
 */
export function ${contract}(setup: () => Promise<${e.pascal}RepositorySubject>): void {
  let subject: ${e.pascal}RepositorySubject;

  beforeAll(async () => {
    subject = await setup();
  });

  it('stores a ${e.words} exactly, under a fresh id', async () => {
    const row = test${e.pascal}({ userId: subject.owner });
    const first = await subject.repository.insert(row);
    const second = await subject.repository.insert(row);
    expect(first).toEqual({ id: expect.any(Number), ...row });
    expect(second.id).toBeGreaterThan(first.id);
  });

  it("lists a user's ${e.words}s only, oldest first", async () => {
    const mine = [
      await subject.repository.insert(test${e.pascal}({ userId: subject.owner, name: 'a' })),
      await subject.repository.insert(test${e.pascal}({ userId: subject.owner, name: 'b' })),
    ];
    const theirs = await subject.repository.insert(test${e.pascal}({ userId: subject.stranger }));
    const listed = await subject.repository.listByUser(subject.owner);
    expect(listed.map((${e.camel}) => ${e.camel}.id)).toEqual(
      [...listed.map((${e.camel}) => ${e.camel}.id)].sort((a, b) => a - b),
    );
    expect(listed).toEqual(expect.arrayContaining(mine));
    expect(listed).not.toContainEqual(theirs);
  });
}
`,
    ),
    file(
      `${lib}/testing/in-memory-${e.kebab}s.spec.ts`,
      `
import { test${e.pascal} } from './${c.kebab}-kit';
import { ${contract} } from './${e.kebab}-repository.contract';
import { ${fake} } from './in-memory-${e.kebab}s';

describe('${fake}', () => {
  ${contract}(async () => ({ repository: new ${fake}(), owner: 7, stranger: 8 }));

  it('takes a failed transaction back: the rows as they were, their ids not reused', async () => {
    const repository = new ${fake}();
    const kept = await repository.insert(test${e.pascal}());
    const restore = repository.snapshot();
    await repository.insert(test${e.pascal}({ name: 'rolled back' }));
    restore();
    expect(await repository.listByUser(7)).toEqual([kept]);
    expect((await repository.insert(test${e.pascal}())).id).toBe(kept.id + 2);
  });
});
`,
    ),
    file(
      `${lib}/testing/${c.kebab}-kit.ts`,
      `
import { ManualClock, SnapshotUnitOfWork } from '@app/platform/testing';
import { New${e.pascal} } from '../application/ports/${e.kebab}.repository.port';
import { ${useCase} } from '../application/create-${e.kebab}.use-case';
import { ${fake} } from './in-memory-${e.kebab}s';

/** A ${e.words} of user 7 named 'first', unless \`fields\` say otherwise. */
export function test${e.pascal}(fields: Partial<New${e.pascal}> = {}): New${e.pascal} {
  return { userId: 7, name: 'first', createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), ...fields };
}

/** The ${c.words} fakes wired together, as the module wires the real adapters. */
export function ${kit}(clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5))) {
  const ${e.camel}s = new ${fake}();
  const uow = new SnapshotUnitOfWork();
  uow.join(${e.camel}s);
  return {
    clock,
    ${e.camel}s,
    uow,
    create: new ${useCase}(${e.camel}s, uow, clock),
  };
}
`,
    ),
    file(
      `${lib}/testing/index.ts`,
      `
/** The ${c.words} test kit: its fakes and contract suites, for other contexts' specs too. */
export * from './${c.kebab}-kit';
export * from './${e.kebab}-repository.contract';
export * from './in-memory-${e.kebab}s';
`,
    ),
    file(
      `${lib}/infrastructure/persistence/${e.kebab}.mapper.ts`,
      `
import { ${e.pascal} } from '../../domain/${e.kebab}';

/** A row of ${table} as the pg driver returns it. */
export interface ${e.pascal}Row {
  id: number;
  user_id: number;
  name: string;
  created_at: Date;
}

export const ${e.upper}_COLUMNS = 'id, user_id, name, created_at';

export function to${e.pascal}(row: ${e.pascal}Row): ${e.pascal} {
  return { id: row.id, userId: row.user_id, name: row.name, createdAt: row.created_at };
}
`,
    ),
    file(
      `${lib}/infrastructure/persistence/postgres-${e.kebab}.repository.ts`,
      `
import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ${repository}, New${e.pascal} } from '../../application/ports/${e.kebab}.repository.port';
import { ${e.pascal} } from '../../domain/${e.kebab}';
import { ${e.upper}_COLUMNS, ${e.pascal}Row, to${e.pascal} } from './${e.kebab}.mapper';

@Injectable()
export class Postgres${repository} extends ${repository} {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async insert(${e.camel}: New${e.pascal}): Promise<${e.pascal}> {
    const [row] = await this.tx.rows<${e.pascal}Row>(
      \`INSERT INTO ${table} (user_id, name, created_at) VALUES ($1, $2, $3)
       RETURNING \${${e.upper}_COLUMNS}\`,
      [${e.camel}.userId, ${e.camel}.name, ${e.camel}.createdAt],
    );
    return to${e.pascal}(row);
  }

  async listByUser(userId: number): Promise<${e.pascal}[]> {
    const rows = await this.tx.rows<${e.pascal}Row>(
      \`SELECT \${${e.upper}_COLUMNS} FROM ${table} WHERE user_id = $1 ORDER BY id\`,
      [userId],
    );
    return rows.map(to${e.pascal});
  }
}
`,
    ),
    file(
      `${lib}/infrastructure/persistence/postgres-${e.kebab}.repository.int-spec.ts`,
      `
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { ${contract} } from '../../testing/${e.kebab}-repository.contract';
import { Postgres${repository} } from './postgres-${e.kebab}.repository';

describe('${e.words} persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let repository: Postgres${repository};
  let ownerId: number;
  let strangerId: number;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    repository = new Postgres${repository}(new TransactionalEntityManager(dataSource));
    const insertUser = async () =>
      (
        await dataSource.query(\`INSERT INTO users (email) VALUES ($1) RETURNING id\`, [
          \`${c.kebab}-int-\${randomUUID()}@example.test\`,
        ])
      )[0].id as number;
    ownerId = await insertUser();
    strangerId = await insertUser();
  });

  // The users' ${e.words}s go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(\`DELETE FROM users WHERE id = ANY($1)\`, [[ownerId, strangerId]]);
    await dataSource.destroy();
  });

  describe('the repository contract', () => {
    ${contract}(async () => ({ repository, owner: ownerId, stranger: strangerId }));
  });
});
`,
    ),
    file(
      `${lib}/infrastructure/migrations/${migrationId}-${c.kebab}-init.ts`,
      `
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ${c.words} context's tables. Its migrations keep to its own id range, from
 * ${migrationId} (docs/architecture.md "How do I write SQL?").
 */
export class ${c.pascal}Init${migrationId} implements MigrationInterface {
  name = '${c.pascal}Init${migrationId}';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(\`
      CREATE TABLE ${table} (
        id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT now()
      )\`);
    await runner.query(\`CREATE INDEX ${table}_user_idx ON ${table} (user_id, id)\`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(\`DROP TABLE ${table}\`);
  }
}
`,
    ),
    file(
      `${lib}/http/rate-limits.ts`,
      `
import { defineRateLimits } from '@app/platform';

/**
 * The minimum seconds between two requests of one user to each rate-limited route
 * (\`@RateLimit(name)\`), and the variable that overrides it; registered by the module.
 */
export const ${c.upper}_RATE_LIMITS = defineRateLimits({
  ${bucket}: { minimumSeconds: 1.0, env: 'RATE_LIMIT_${c.upper}_CREATE' },
});
`,
    ),
    file(
      `${lib}/http/create-${e.kebab}.request.dto.ts`,
      `
import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** \`{"name": "..."}\`; the rules of a name are the domain's (${e.camel}NameProblem). */
export class Create${e.pascal}RequestDto {
  @ApiProperty({ example: 'first', maxLength: 100 })
  @IsString()
  name: string;
}
`,
    ),
    file(
      `${lib}/http/${e.kebab}.response.dto.ts`,
      `
import { ApiProperty } from '@nestjs/swagger';

export class ${e.pascal}Dto {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'first' })
  name: string;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;
}

export class Create${e.pascal}ResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: ${e.pascal}Dto })
  ${e.snake}: ${e.pascal}Dto;
}
`,
    ),
    file(
      `${lib}/http/${e.kebab}.presenter.ts`,
      `
import { ${e.pascal} } from '../domain/${e.kebab}';
import { ${e.pascal}Dto } from './${e.kebab}.response.dto';

export function present${e.pascal}(${e.camel}: ${e.pascal}): ${e.pascal}Dto {
  return {
    id: ${e.camel}.id,
    name: ${e.camel}.name,
    created_at: Math.floor(${e.camel}.createdAt.getTime() / 1000),
  };
}
`,
    ),
    file(
      `${lib}/http/${c.kebab}.controller.ts`,
      `
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Access,
  CurrentPrincipal,
  ErrorEnvelopeDto,
  errorResponsesOf,
  Principal,
  RateLimit,
  strictBody,
} from '@app/platform';
import { ${useCase} } from '../application/create-${e.kebab}.use-case';
import { ${errorClass}, ${errors} } from '../domain/errors';
import { Create${e.pascal}RequestDto } from './create-${e.kebab}.request.dto';
import { present${e.pascal} } from './${e.kebab}.presenter';
import { Create${e.pascal}ResponseDto } from './${e.kebab}.response.dto';

/** \`@StrictBody() body: SomeDto\`: the request body as SomeDto, or a 400 bad_request. */
const StrictBody = strictBody((message) => new ${errorClass}('bad_request', message));

/** Documents a route's failures from the codes it can raise. */
const Api${c.pascal}Errors = errorResponsesOf(${errors}, ErrorEnvelopeDto);

@ApiTags('${c.kebab}')
@ApiBearerAuth()
@Controller('api/v0/${c.kebab}')
export class ${c.pascal}Controller {
  constructor(private readonly create${e.pascal}: ${useCase}) {}

  @Post()
  @Access('misc', '${route}')
  @HttpCode(200)
  @RateLimit('${bucket}')
  @ApiOperation({ summary: 'Create a ${e.words}' })
  @ApiBody({ type: Create${e.pascal}RequestDto })
  @ApiOkResponse({ type: Create${e.pascal}ResponseDto })
  @Api${c.pascal}Errors('bad_request', '${invalidName}')
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: Create${e.pascal}RequestDto,
  ): Promise<Create${e.pascal}ResponseDto> {
    const ${e.camel} = await this.create${e.pascal}.execute({ userId: principal.userId, name: body.name });
    return { success: true, ${e.snake}: present${e.pascal}(${e.camel}) };
  }
}
`,
    ),
    file(
      `test/${c.kebab}.e2e-spec.ts`,
      `
import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';

describe('${c.kebab}: POST /api/v0/${c.kebab}/', () => {
  let api: TestApi;
  let user: TestUser;

  const create = (body: unknown, caller: TestUser | null = user, on = api) => {
    const call = on.http().post('/api/v0/${c.kebab}/');
    if (caller) call.set(caller.auth);
    return call.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  const storedOf = (userId: number): Promise<Array<{ id: number; name: string }>> =>
    api.app
      .get(DataSource)
      .query(\`SELECT id, name FROM ${table} WHERE user_id = $1 ORDER BY id\`, [userId]);

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api);
  });

  afterAll(() => api.close());

  it("creates the caller's ${e.words} and answers it", async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await create({ name: 'first' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      ${e.snake}: { id: expect.any(Number), name: 'first', created_at: expect.any(Number) },
    });
    expect(response.body.${e.snake}.created_at).toBeGreaterThanOrEqual(before);
    expect(await storedOf(user.id)).toEqual([{ id: response.body.${e.snake}.id, name: 'first' }]);
  });

  it('refuses a name the domain refuses, with its code, storing nothing', async () => {
    const owner = await createTestUser(api);
    const response = await create({ name: ' ' }, owner);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: '${invalidName}',
      msg: 'name must not be empty',
    });
    expect(await storedOf(owner.id)).toEqual([]);
  });

  it('refuses a body of another shape with bad_request', async () => {
    for (const body of [{}, { name: 5 }, { name: 'x', extra: true }, []]) {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: 'bad_request' });
    }
  });

  it('needs a credential', async () => {
    const response = await create({ name: 'first' }, null);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'This action requires login.',
    });
  });

  describe('with rate limits on', () => {
    let limited: TestApi;

    beforeAll(async () => {
      limited = await startApi({ RATE_LIMITS: 'on', RATE_LIMIT_${c.upper}_CREATE: '600' });
    });

    afterAll(() => limited.close());

    it('answers a second create within RATE_LIMIT_${c.upper}_CREATE with 429, creating nothing', async () => {
      const owner = await createTestUser(limited);
      expect((await create({ name: 'first' }, owner, limited)).status).toBe(200);
      const second = await create({ name: 'second' }, owner, limited);
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=600.0' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expect((await storedOf(owner.id)).map((row) => row.name)).toEqual(['first']);
    });
  });
});
`,
    ),
  ];
}
