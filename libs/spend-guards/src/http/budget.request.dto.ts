import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional } from 'class-validator';

/**
 * `POST /api/v0/budgets/`. Only the shape is checked here (unknown fields are a 400); the
 * rules of each field are the domain's (domain/budget.ts), each refused with its own code.
 */
export class CreateBudgetRequestDto {
  @ApiProperty({ type: String, example: 'training', maxLength: 100 })
  @Allow()
  name: unknown;

  @ApiProperty({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    example: '250.00',
    description: '> 0, at most 1e9, at most 3 decimals; a JSON number or a decimal string',
  })
  @Allow()
  amount: unknown;

  @ApiProperty({
    enum: ['day', 'week', 'month'],
    description: 'UTC calendar periods, weeks from Monday',
  })
  @Allow()
  period: unknown;

  @ApiPropertyOptional({
    type: [Number],
    example: [50, 80, 100],
    description: 'integer percents 1..1000, 1 to 10 distinct; default [50, 80, 100]',
  })
  @IsOptional()
  thresholds?: unknown;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'only charges of contracts with this label',
  })
  @IsOptional()
  label?: unknown;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'only charges of this endpoint',
  })
  @IsOptional()
  endpoint_id?: unknown;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'only charges of this workergroup',
  })
  @IsOptional()
  workergroup_id?: unknown;
}

/**
 * `PUT /api/v0/budgets/{id}/`: any of name, amount, thresholds and the scope keys; a scope
 * key given as null removes it. The period cannot change.
 */
export class UpdateBudgetRequestDto {
  @ApiPropertyOptional({ type: String, example: 'training', maxLength: 100 })
  @IsOptional()
  name?: unknown;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }], example: '300' })
  @IsOptional()
  amount?: unknown;

  @ApiPropertyOptional({ type: [Number], example: [80, 100] })
  @IsOptional()
  thresholds?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  label?: unknown;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  endpoint_id?: unknown;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  workergroup_id?: unknown;
}
