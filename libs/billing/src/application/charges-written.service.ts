import { Injectable, Logger } from '@nestjs/common';

/** Told, after the commit, the owner keys whose charges a write changed. */
export type ChargesWrittenListener = (ownerKey: number) => Promise<unknown>;

/**
 * The hook of billing's one write path (ContractRepository.replace): other contexts
 * register a listener (budgets evaluate the owner's thresholds) in their `onModuleInit`,
 * so billing never imports them. Listeners run once the write committed, in turn; one that
 * fails is logged and never fails the write, nor keeps the next listener from running.
 */
@Injectable()
export class ChargesWritten {
  private readonly logger = new Logger('ChargesWritten');
  private readonly listeners: { name: string; listener: ChargesWrittenListener }[] = [];

  listen(name: string, listener: ChargesWrittenListener): void {
    this.listeners.push({ name, listener });
  }

  /** Runs every listener for the owner; resolves when all are done, never rejects. */
  async announce(ownerKey: number): Promise<void> {
    for (const { name, listener } of this.listeners) {
      try {
        await listener(ownerKey);
      } catch (error) {
        this.logger.warn(
          `${name} failed after a charges write of owner ${ownerKey}: ${(error as Error).message}`,
        );
      }
    }
  }
}
