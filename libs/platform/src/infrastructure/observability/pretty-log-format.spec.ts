import { prettyFactory } from 'pino-pretty';
import { PRETTY_TRANSPORT } from './observability.module';

describe('the pretty log format', () => {
  const pretty = prettyFactory({ ...PRETTY_TRANSPORT.options, colorize: false });

  it('ends a traced line with its trace_id and span_id', () => {
    const line = pretty({
      level: 30,
      time: Date.now(),
      msg: 'GET /api/v0/tfa/status/ 200 3 ms',
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      span_id: 'b7ad6b7169203331',
      trace_flags: '01',
    });
    expect(line).toContain(
      'GET /api/v0/tfa/status/ 200 3 ms trace_id=0af7651916cd43dd8448eb211c80319c span_id=b7ad6b7169203331',
    );
    expect(line).not.toContain('trace_flags');
  });

  it('leaves an untraced line as it was', () => {
    const line = pretty({ level: 30, time: Date.now(), msg: 'API started', context: 'Main' });
    expect(line).toContain('[Main] API started');
    expect(line).not.toContain('trace_id');
  });
});
