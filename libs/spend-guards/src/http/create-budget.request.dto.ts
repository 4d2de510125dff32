import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** `{"name": "..."}`; the rules of a name are the domain's (budgetNameProblem). */
export class CreateBudgetRequestDto {
  @ApiProperty({ example: 'first', maxLength: 100 })
  @IsString()
  name: string;
}
