import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChargeItemDto {
  @ApiProperty({ description: 'Start of the first charged day in range, unix seconds UTC' })
  start: number;
  @ApiProperty({ description: 'End of the last charged day in range, unix seconds UTC' })
  end: number;
  @ApiProperty({ enum: ['gpu', 'disk', 'bwd', 'bwu'] })
  type: string;
  @ApiProperty({ type: String, nullable: true, example: null })
  source: string | null;
  @ApiProperty({ example: '96.000 hours at $0.389/hour' })
  description: string;
  @ApiProperty({ example: 37.344, description: 'Rounded to 3 decimals' })
  amount: number;
  @ApiProperty({ type: Object, example: {} })
  metadata: Record<string, unknown>;
  @ApiProperty({ type: [Object], example: [] })
  items: unknown[];
}

export class ChargeEntryMetadataDto {
  @ApiPropertyOptional() template_id?: number;
  @ApiPropertyOptional() label?: string;
  @ApiPropertyOptional() endpoint_id?: number;
  @ApiPropertyOptional() workergroup_id?: number;
}

export class ChargeEntryDto {
  @ApiProperty({ description: 'Contract start (wrappers: earliest start), unix seconds UTC' })
  start: number;
  @ApiProperty({ description: 'Contract end (wrappers: latest end), unix seconds UTC' })
  end: number;
  @ApiProperty({ enum: ['instance', 'volume', 'serverless'] })
  type: string;
  @ApiProperty({
    example: 'instance-12345678',
    description: '{type}-{id}; wrappers endpoint-<id> or workergroup-<id>',
  })
  source: string;
  @ApiProperty({ example: 'Instance 12345678 Charges - 4 days' })
  description: string;
  @ApiProperty({
    example: 41.2,
    description:
      'Sum of the billed amounts of the charges in range (each rounded to 3 decimals), 3 decimals',
  })
  amount: number;
  @ApiProperty({ type: ChargeEntryMetadataDto, description: 'Keys present only when non-null' })
  metadata: ChargeEntryMetadataDto;
  @ApiProperty({ type: [ChargeItemDto], description: 'Empty for tree-format wrappers' })
  items: ChargeItemDto[];
}

export class ChargePageDto {
  @ApiProperty() success: boolean;
  @ApiProperty({ description: 'Entries in this page' }) count: number;
  @ApiProperty({ description: 'Entries matching the filters across all pages' }) total: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'after_token of the next page; null on the last page',
  })
  next_token: string | null;
  @ApiProperty({ type: [ChargeEntryDto] }) results: ChargeEntryDto[];
}
