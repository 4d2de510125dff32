import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class StatementGroupDto {
  @ApiProperty({
    example: 'instance',
    description:
      'type: instance, volume, serverless; endpoint: endpoint-<id>; workergroup: workergroup-<id>; ' +
      'label: the label. Charges without one are under "(none)".',
  })
  key: string;
  @ApiPropertyOptional({
    example: 'serverless',
    description:
      "With two dimensions (group_by=endpoint,type): the second dimension's key; groups are " +
      'then (key, subkey) pairs',
  })
  subkey?: string;
  @ApiProperty({
    example: 412.5,
    description: 'Sum of billed amounts (each line rounded to 3 decimals)',
  })
  amount: number;
}

export class StatementPeriodDto {
  @ApiProperty({ description: "Midnight UTC of the period's first day in range, unix seconds" })
  start: number;
  @ApiProperty({ description: "End (exclusive) of the period's last day in range, unix seconds" })
  end: number;
  @ApiProperty({ type: [StatementGroupDto], description: 'Groups with charges, by key' })
  groups: StatementGroupDto[];
  @ApiProperty({ example: 1024.75, description: 'Sum of the groups (billed amounts)' })
  amount: number;
}

export class ChargeStatementDto {
  @ApiProperty() success: boolean;
  @ApiProperty({
    type: [StatementPeriodDto],
    description: 'Every calendar period meeting the range, in order, also those without charges',
  })
  periods: StatementPeriodDto[];
  @ApiProperty({ example: 3021.4, description: 'Sum of the periods (billed amounts)' })
  amount: number;
}
