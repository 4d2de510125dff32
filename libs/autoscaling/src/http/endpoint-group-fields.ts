import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  ENDPOINT_NAME_PATTERN,
  ENDPOINT_NAME_RULE,
  ENDPOINT_STATES,
} from '../domain/endpoint-group';

/**
 * Type checks only: JSON numbers (never numeric strings, "NaN" or "Infinity"), integers
 * where the option is an integer. Ranges and the rules between options are the domain's,
 * checked on the complete (defaulted or merged) options. null means "not given".
 */
export const NumberOption = (description: string, fallback?: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'number', nullable: true, description, default: fallback }),
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number' }),
  );

export const IntegerOption = (description: string, fallback?: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', nullable: true, description, default: fallback }),
    IsOptional(),
    IsInt({ message: '$property must be an integer' }),
  );

export const EndpointNameOption = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      nullable: true,
      pattern: ENDPOINT_NAME_PATTERN.source,
      minLength: 1,
      maxLength: 255,
      example: 'meta/llama-3.1-8b:instruct',
      description: `deployment endpoint name, ${ENDPOINT_NAME_RULE}; several groups may share one`,
    }),
    IsOptional(),
    IsString({ message: '$property must be a string' }),
    Matches(ENDPOINT_NAME_PATTERN, {
      message: `$property must be ${ENDPOINT_NAME_RULE}`,
    }),
  );

export const EndpointStateOption = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: ENDPOINT_STATES, nullable: true }),
    IsOptional(),
    IsIn(ENDPOINT_STATES as unknown as string[], {
      message: `$property must be one of ${ENDPOINT_STATES.join(', ')}`,
    }),
  );

/** Fields the public client always sends; accepted and not used by the server. */
export const ClientTagField = (description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'string', nullable: true, description, example }),
    IsOptional(),
    IsString({ message: '$property must be a string' }),
    MaxLength(255),
  );
