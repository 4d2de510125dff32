import { parseBooleanSetting } from './boolean-setting';

describe('parseBooleanSetting', () => {
  it.each(['true', '1', 'yes', 'on', 'TRUE', ' Yes '])('reads %p as true', (raw) => {
    expect(parseBooleanSetting(raw)).toBe(true);
  });

  it.each(['false', '0', 'no', 'off', 'OFF'])('reads %p as false', (raw) => {
    expect(parseBooleanSetting(raw)).toBe(false);
  });

  it('tells unset from a value that is none of the words', () => {
    expect(parseBooleanSetting(undefined)).toBeUndefined();
    expect(parseBooleanSetting('maybe')).toBeNull();
    expect(parseBooleanSetting('2')).toBeNull();
  });
});
