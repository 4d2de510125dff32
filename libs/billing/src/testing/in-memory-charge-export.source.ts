import { Readable } from 'node:stream';
import {
  ChargeExportSource,
  ChargeLineStream,
} from '../application/ports/charge-export.source.port';
import { ChargeExportQuery, ChargeLine } from '../domain/charge-export';
import { CHARGE_CATEGORIES, CHARGE_TYPES } from '../domain/charge-report';
import { Contract, contractOwnerKey, DailyCharge } from '../domain/contract';
import { threeDecimals } from '../domain/charge-descriptions';
import { chargeCategory, InMemoryContracts } from './in-memory-contracts';

const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The export's lines over plain arrays, in export order: contracts by start then source,
 * then day, then gpu, disk, bwd, bwu.
 */
export class InMemoryChargeExportSource extends ChargeExportSource {
  constructor(private readonly contracts = new InMemoryContracts()) {
    super();
  }

  add(contract: Contract, charges: DailyCharge[]): void {
    this.contracts.add(contract, charges);
  }

  async open(ownerKey: number, query: ChargeExportQuery): Promise<ChargeLineStream> {
    const categories = query.categories ?? CHARGE_CATEGORIES;
    const lines = this.contracts
      .all()
      .filter(({ contract }) => contractOwnerKey(contract) === ownerKey)
      .filter(({ contract }) => categories.includes(chargeCategory(contract)))
      .sort(
        ({ contract: a }, { contract: b }) =>
          a.start - b.start || bytes(`${a.kind}-${a.id}`, `${b.kind}-${b.id}`),
      )
      .flatMap(({ contract, charges }) => linesOf(contract, charges, query));
    return { expectedLines: lines.length, lines: Readable.from(lines) };
  }
}

function linesOf(
  contract: Contract,
  charges: DailyCharge[],
  query: ChargeExportQuery,
): ChargeLine[] {
  return charges
    .filter((charge) => charge.day >= query.gte && charge.day <= query.lte)
    .sort((a, b) => a.day - b.day || CHARGE_TYPES.indexOf(a.type) - CHARGE_TYPES.indexOf(b.type))
    .map((charge) => ({
      contractId: contract.id,
      contractType: chargeCategory(contract),
      label: contract.label,
      endpointId: contract.endpointId,
      workergroupId: contract.workergroupId,
      type: charge.type,
      day: charge.day,
      quantity: charge.quantity,
      unit: charge.unit,
      rate: charge.rate,
      amount: charge.amount,
      billed: threeDecimals(charge.amount),
    }));
}
