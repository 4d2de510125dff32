import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { ExportCut, watchExport } from './export-watchdog';

/** The parts of a response the watchdog reads, driven by the test. */
class FakeResponse extends EventEmitter {
  destroyed = false;
  writableFinished = false;
  writableNeedDrain = false;
  destroy(): void {
    this.destroyed = true;
  }
}

describe('watchExport', () => {
  let response: FakeResponse;
  let cuts: { reason: ExportCut; afterMs: number }[];

  beforeEach(() => {
    jest.useFakeTimers();
    response = new FakeResponse();
    cuts = [];
  });
  afterEach(() => jest.useRealTimers());

  const watch = (stallTimeoutMs: number, maxDurationMs: number) =>
    watchExport(
      response as unknown as Response,
      { stallTimeoutMs, maxDurationMs },
      (reason, afterMs) => cuts.push({ reason, afterMs }),
    );

  it('cuts a steadily read export exactly at the wall-clock bound, not at the next stall check', () => {
    watch(60_000, 1_500);
    jest.advanceTimersByTime(1_499);
    expect(response.destroyed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(response.destroyed).toBe(true);
    expect(cuts).toEqual([{ reason: 'deadline', afterMs: 1_500 }]);
  });

  it('cuts a reader that takes nothing for the stall timeout, within a tenth of it', () => {
    watch(3_000, 600_000);
    response.writableNeedDrain = true;
    jest.advanceTimersByTime(3_000);
    expect(response.destroyed).toBe(false);
    jest.advanceTimersByTime(300);
    expect(cuts).toEqual([{ reason: 'stalled', afterMs: 3_300 }]);
  });

  it('a drain restarts the stall clock: a slow reader is no stall', () => {
    watch(3_000, 600_000);
    for (let second = 0; second < 20; second++) {
      response.writableNeedDrain = true;
      jest.advanceTimersByTime(2_000);
      response.writableNeedDrain = false;
      response.emit('drain');
      jest.advanceTimersByTime(1_000);
    }
    expect(cuts).toEqual([]);
  });

  it('never cuts a finished export, and stops watching it', () => {
    watch(3_000, 1_500);
    response.writableFinished = true;
    jest.advanceTimersByTime(10_000);
    expect(cuts).toEqual([]);
    expect(response.destroyed).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
    expect(response.listenerCount('drain')).toBe(0);
  });
});
