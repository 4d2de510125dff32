import { ApiProperty } from '@nestjs/swagger';

export class BudgetDto {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'first' })
  name: string;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;
}

export class CreateBudgetResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: BudgetDto })
  budget: BudgetDto;
}
