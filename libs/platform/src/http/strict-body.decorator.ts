import {
  ArgumentMetadata,
  createParamDecorator,
  ExecutionContext,
  PipeTransform,
} from '@nestjs/common';
import { createValidationPipe, ValidationFailure } from './validation';

const RequestBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<{ body?: unknown }>().body ?? {},
);

/**
 * A body parameter decorator that validates with the context's own error and refuses
 * unknown fields: `const StrictBody = strictBody((msg) => new XError('invalid_args', msg))`,
 * then `@StrictBody() body: SomeDto`. The global pipe would get there first (answering
 * `bad_request` and silently dropping unknown fields), so the body is read through a custom
 * parameter decorator, which the global pipe leaves alone, and validated by this pipe only.
 */
export function strictBody(failure: ValidationFailure): () => ParameterDecorator {
  const inner = createValidationPipe(failure, true);
  const pipe: PipeTransform = {
    transform: (value: unknown, metadata: ArgumentMetadata) =>
      inner.transform(value, { ...metadata, type: 'body' }),
  };
  return () => RequestBody(pipe);
}
