import { ChargeEntry, ChargeItem, ChargeReportPage, ContractEntry } from '../domain/charge-entries';
import {
  ChargeEntryDto,
  ChargeEntryMetadataDto,
  ChargeItemDto,
  ChargePageDto,
} from './charge-page.response.dto';

/** A 3-decimal string from PostgreSQL numeric, as the JSON number the client reads. */
function money(decimal: string): number {
  return Number(decimal);
}

/** Keys present only when non-null on the contract, in the order the client shows them. */
function contractMetadata(entry: ContractEntry): ChargeEntryMetadataDto {
  const metadata: ChargeEntryMetadataDto = {};
  if (entry.templateId !== null) metadata.template_id = entry.templateId;
  if (entry.label !== null) metadata.label = entry.label;
  if (entry.endpointId !== null) metadata.endpoint_id = entry.endpointId;
  if (entry.workergroupId !== null) metadata.workergroup_id = entry.workergroupId;
  return metadata;
}

/** An item has the entry's shape with a null source and nothing below it. */
export function presentChargeItem(item: ChargeItem): ChargeItemDto {
  return {
    start: item.start,
    end: item.end,
    type: item.type,
    source: null,
    description: item.description,
    amount: money(item.amount),
    metadata: {},
    items: [],
  };
}

export function presentChargeEntry(entry: ChargeEntry): ChargeEntryDto {
  if (entry.entryKind === 'wrapper') {
    return {
      start: entry.start,
      end: entry.end,
      type: 'serverless',
      source: entry.source,
      description: entry.description,
      amount: money(entry.amount),
      metadata:
        entry.groupType === 'endpoint'
          ? { endpoint_id: entry.groupId }
          : { workergroup_id: entry.groupId },
      items: [],
    };
  }
  return {
    start: entry.start,
    end: entry.end,
    type: entry.kind,
    source: entry.source,
    description: entry.description,
    amount: money(entry.amount),
    metadata: contractMetadata(entry),
    items: entry.items.map(presentChargeItem),
  };
}

/** GET /api/v0/charges/ as the public client reads it (docs/billing.md). */
export function presentChargePage(page: ChargeReportPage): ChargePageDto {
  return {
    success: true,
    count: page.entries.length,
    total: page.total,
    next_token: page.nextToken,
    results: page.entries.map(presentChargeEntry),
  };
}
