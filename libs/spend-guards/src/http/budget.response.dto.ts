import { ApiProperty } from '@nestjs/swagger';

export class BudgetOwnerDto {
  @ApiProperty({ type: Number, nullable: true, description: 'the user, for a personal budget' })
  user_id: number | null;

  @ApiProperty({ type: Number, nullable: true, description: "the team, for a team's budget" })
  team_id: number | null;
}

export class BudgetDto {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'training' })
  name: string;

  @ApiProperty({ example: '250.000', description: 'dollars, a decimal string with 3 decimals' })
  amount: string;

  @ApiProperty({ enum: ['day', 'week', 'month'] })
  period: string;

  @ApiProperty({ type: [Number], example: [50, 80, 100] })
  thresholds: number[];

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiProperty({ type: Number, nullable: true })
  endpoint_id: number | null;

  @ApiProperty({ type: Number, nullable: true })
  workergroup_id: number | null;

  @ApiProperty({ type: BudgetOwnerDto })
  owner: BudgetOwnerDto;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  updated_at: number;
}

export class BudgetStatusDto {
  @ApiProperty({ example: 1767225600, description: 'epoch seconds of the UTC midnight it starts' })
  period_start: number;

  @ApiProperty({
    example: 1769904000,
    description: 'epoch seconds of the UTC midnight it ends (excluded)',
  })
  period_end: number;

  @ApiProperty({
    example: '120.500',
    description: "the sum of the billed amounts of the period's charges in scope",
  })
  spent: string;

  @ApiProperty({ example: '129.500', description: 'amount - spent (negative once overspent)' })
  remaining: string;

  @ApiProperty({
    example: '240.000',
    description: 'spent extended linearly to the end of the period',
  })
  forecast: string;

  @ApiProperty({ enum: ['linear'] })
  forecast_method: string;

  @ApiProperty({ type: [Number], example: [50], description: 'the thresholds spent has reached' })
  crossed: number[];
}

export class BudgetWithStatusDto extends BudgetDto {
  @ApiProperty({ type: BudgetStatusDto })
  status: BudgetStatusDto;
}

export class BudgetAlertDto {
  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ example: 80 })
  threshold: number;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  period_start: number;

  @ApiProperty({ example: 1769904000, description: 'epoch seconds' })
  period_end: number;

  @ApiProperty({ example: '201.250', description: 'spent when the threshold was crossed' })
  spent: string;

  @ApiProperty({ example: '250.000', description: "the budget's amount then" })
  amount: string;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;
}

export class BudgetResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: BudgetDto })
  budget: BudgetDto;
}

export class BudgetWithStatusResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: BudgetWithStatusDto })
  budget: BudgetWithStatusDto;
}

export class BudgetListResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: [BudgetDto] })
  budgets: BudgetDto[];
}

export class BudgetAlertListResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: [BudgetAlertDto] })
  alerts: BudgetAlertDto[];
}

export class BudgetDeletedResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
}
