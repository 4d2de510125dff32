import { InvalidArgumentError } from 'commander';
import { labelOption } from './tfa.commands';

describe('tfa commands', () => {
  it('checks labels against the 30-character limit, counting characters, not bytes', () => {
    expect(labelOption('Phone app')).toBe('Phone app');
    expect(labelOption('é'.repeat(30))).toBe('é'.repeat(30));
    expect(labelOption('📱'.repeat(30))).toBe('📱'.repeat(30));
    expect(() => labelOption('x'.repeat(31))).toThrow('Use 1 to 30 characters (this one has 31).');
    expect(() => labelOption('')).toThrow(InvalidArgumentError);
  });
});
