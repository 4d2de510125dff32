import { MessageHandlers } from './message-handlers.service';

describe('MessageHandlers', () => {
  it('finds the handler of a job name, and none for a name nobody registered', async () => {
    const handlers = new MessageHandlers();
    const ran: unknown[] = [];
    handlers.handle<{ id: number }>('deliver-thing', async (data, attempt) =>
      ran.push([data, attempt]),
    );
    await handlers.handlerOf('deliver-thing')?.({ id: 3 }, { attempt: 1, maxAttempts: 5 });
    expect(ran).toEqual([[{ id: 3 }, { attempt: 1, maxAttempts: 5 }]]);
    expect(handlers.handlerOf('deliver-other')).toBeUndefined();
  });

  it('refuses a second handler for one job name', () => {
    const handlers = new MessageHandlers();
    handlers.handle('deliver-thing', async () => 'sent');
    expect(() => handlers.handle('deliver-thing', async () => 'sent')).toThrow(
      'message job deliver-thing has two handlers',
    );
  });
});
