import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../domain/domain-error';

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

/**
 * The global pipe: DTO validation with type transformation, no implicit conversion
 * (a string is never silently a number), failures become `code` 400 errors.
 */
export function createValidationPipe(
  code = 'bad_request',
  forbidUnknownFields = false,
): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: forbidUnknownFields,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new DomainError(code, `Invalid request: ${describeValidationErrors(errors).join('; ')}`),
  });
}
