import { presentUnlistedVolume } from './volume-listing.presenter';

describe('presentUnlistedVolume', () => {
  it('answers a first and a repeated unlist alike, naming the volume', () => {
    expect(presentUnlistedVolume(30001, 'unlisted')).toEqual({
      success: true,
      msg: 'Unlisted Volume 30001.',
    });
    expect(presentUnlistedVolume(30001, 'already_unlisted')).toEqual(
      presentUnlistedVolume(30001, 'unlisted'),
    );
  });
});
