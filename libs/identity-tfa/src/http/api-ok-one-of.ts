import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/**
 * A 200 whose body is exactly one of several shapes (e.g. two flows of one route). The
 * shapes must be told apart by their required fields or fixed values, or oneOf fails.
 */
export const ApiOkResponseOneOf = (description: string, ...bodies: Type[]) =>
  applyDecorators(
    ApiExtraModels(...bodies),
    ApiOkResponse({
      description,
      schema: { oneOf: bodies.map((body) => ({ $ref: getSchemaPath(body) })) },
    }),
  );
