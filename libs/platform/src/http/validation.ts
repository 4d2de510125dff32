import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, PlatformError } from '../domain/domain-error';

/** Flattens class-validator errors into one message that names each offending field. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const constraints = Object.values(error.constraints);
      messages.push(
        error.constraints.whitelistValidation
          ? `${path}: unknown field`
          : `${path}: ${constraints.map((text) => text.replace(new RegExp(`^${error.property} `), '')).join(', ')}`,
      );
    }
    if (error.children?.length) messages.push(...describeValidationErrors(error.children, path));
  }
  return messages;
}

/** The error a failed validation raises, from the message naming each offending field. */
export type ValidationFailure = (message: string) => DomainError;

/**
 * The global pipe: DTO validation with type transformation, no implicit conversion
 * (a string is never silently a number); failures become `bad_request` unless a route's
 * own pipe (strictBody) raises its context's code.
 */
export function createValidationPipe(
  failure: ValidationFailure = (message) => new PlatformError('bad_request', message),
  forbidUnknownFields = false,
): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: forbidUnknownFields,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      failure(`Invalid request: ${describeValidationErrors(errors).join('; ')}`),
  });
}
