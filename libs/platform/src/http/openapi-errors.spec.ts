import { defineErrors } from '../domain/domain-error';
import { ErrorEnvelopeDto, errorResponsesOf } from './openapi-errors';

/** Where @nestjs/swagger keeps a route's declared responses. */
const API_RESPONSE = 'swagger/apiResponse';

const TABLE = defineErrors({
  thing_missing: { status: 404, wireCode: 'not_found' },
  thing_busy: { status: 400 },
});

function responsesOf(decorator: MethodDecorator): Record<string, unknown> {
  class Routes {
    route(): void {}
  }
  const descriptor = Object.getOwnPropertyDescriptor(Routes.prototype, 'route')!;
  decorator(Routes.prototype, 'route', descriptor);
  return Reflect.getMetadata(API_RESPONSE, descriptor.value);
}

describe('errorResponsesOf', () => {
  it('documents one response per status, listing the wire codes, with the body given', () => {
    const ApiErrors = errorResponsesOf(TABLE, ErrorEnvelopeDto);
    expect(responsesOf(ApiErrors('thing_missing', 'thing_busy', 'bad_request'))).toEqual({
      '400': expect.objectContaining({
        description: 'error: thing_busy, bad_request',
        type: ErrorEnvelopeDto,
      }),
      '404': expect.objectContaining({ description: 'error: not_found' }),
    });
  });

  it("describes one status in the route's words, the body left to the envelope when none is given", () => {
    const ApiErrors = errorResponsesOf(TABLE);
    const responses = responsesOf(
      ApiErrors.described('busy, or a bad body', 'thing_busy', 'bad_request'),
    );
    expect(responses).toEqual({
      '400': expect.objectContaining({ description: 'busy, or a bad body' }),
    });
    expect((responses['400'] as { type?: unknown }).type).toBeUndefined();
  });

  it('refuses to describe codes of two statuses in one text', () => {
    expect(() =>
      errorResponsesOf(TABLE).described('either', 'thing_missing', 'thing_busy'),
    ).toThrow('thing_missing, thing_busy answer 404 and 400; describe one status at a time');
  });
});
