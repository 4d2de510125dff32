import { MessageHandlers } from '../../application/message-handlers.service';
import { RequeueSweeper } from './requeue.sweeper';

describe('RequeueSweeper', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs each sweep on its own interval, never two passes of one sweep at once, and stops on shutdown', async () => {
    const handlers = new MessageHandlers();
    let running = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    handlers.sweep({
      what: 'pending things',
      everySeconds: 10,
      run: async () => {
        running += 1;
        passes += 1;
        await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
        return 1;
      },
    });
    const sweeper = new RequeueSweeper(handlers);
    sweeper.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(9_999);
    expect(passes).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes).toBe(1);
    // The first pass still runs: the next tick does not overlap it.
    await jest.advanceTimersByTimeAsync(10_000);
    expect([passes, running]).toEqual([1, 1]);
    release();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(passes).toBe(2);
    release();

    sweeper.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(passes).toBe(2);
  });
});
