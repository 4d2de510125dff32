import { CodeDeliveryProvider, OutgoingCode } from './ports/code-delivery.provider.port';
import { DeliverCodeUseCase } from './deliver-code.use-case';
import { tfaTestKit } from '../testing/tfa-test-kit';

class RecordingProvider extends CodeDeliveryProvider {
  readonly name = 'recording';
  readonly sent: OutgoingCode[] = [];
  async send(message: OutgoingCode) {
    this.sent.push(message);
    return { providerMessageId: String(this.sent.length) };
  }
}

describe('DeliverCodeUseCase', () => {
  async function setup() {
    const kit = tfaTestKit();
    const provider = new RecordingProvider();
    const deliver = new DeliverCodeUseCase(kit.store, provider, kit.secrets, kit.metrics);
    const { challenge } = await kit.challenges.open(7, 'verify');
    return { kit, provider, deliver, challenge };
  }

  it('sends the current code once and then drops the encrypted copy', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'sms', '+15550001111', null);
    const code = await kit.lastCode();
    expect(await deliver.execute(kit.queue.jobs[0])).toBe('sent');
    expect(provider.sent).toEqual([
      expect.objectContaining({ channel: 'sms', to: '+15550001111', userId: 7, purpose: 'verify' }),
    ]);
    expect(provider.sent[0].text).toContain(code);
    expect(await kit.store.readDeliveryCopy(challenge.key)).toBeNull();
    expect(await deliver.execute(kit.queue.jobs[0])).toBe('gone');
  });

  it('skips a superseded send and a consumed challenge', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    expect(await deliver.execute(kit.queue.jobs[0])).toBe('superseded');
    await kit.store.consume(challenge.key);
    expect(await deliver.execute(kit.queue.jobs[1])).toBe('gone');
    expect(provider.sent).toEqual([]);
  });
});
