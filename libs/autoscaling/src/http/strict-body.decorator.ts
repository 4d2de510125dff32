import {
  ArgumentMetadata,
  createParamDecorator,
  ExecutionContext,
  PipeTransform,
} from '@nestjs/common';
import { createValidationPipe } from '@app/platform';

/**
 * Validates a body with the `invalid_args` code and refuses unknown fields. The global
 * pipe would get there first (answering `bad_request` and silently dropping unknown
 * fields), so the body is read through a custom parameter decorator, which the global
 * pipe leaves alone, and validated by this pipe only.
 */
class StrictBodyPipe implements PipeTransform {
  private readonly inner = createValidationPipe('invalid_args', true);

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return this.inner.transform(value, { ...metadata, type: 'body' });
  }
}

const RequestBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<{ body?: unknown }>().body ?? {},
);

/** `@StrictBody() body: SomeDto`: the request body as SomeDto, or a 400 invalid_args. */
export const StrictBody = (): ParameterDecorator => RequestBody(new StrictBodyPipe());
