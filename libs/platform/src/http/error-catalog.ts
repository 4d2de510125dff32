import { Injectable } from '@nestjs/common';
import { ErrorDefinition, ErrorTable, PLATFORM_ERRORS } from '../domain/domain-error';

/**
 * The error tables of every context, as the exception filter reads them. Each context
 * registers its `domain/errors.ts` table at module construction; a code nobody registered
 * is a programming error and answers 500.
 */
@Injectable()
export class ErrorCatalog {
  private readonly definitions = new Map<string, ErrorDefinition>(Object.entries(PLATFORM_ERRORS));

  register(table: ErrorTable): void {
    for (const [code, definition] of Object.entries(table)) this.definitions.set(code, definition);
  }

  resolve(code: string): ErrorDefinition | undefined {
    return this.definitions.get(code);
  }
}
