import { InvalidArgumentError } from 'commander';
import { choiceOption, parseBooleanWord, parseNumber } from './validation';

describe('option validation', () => {
  it('parses numbers strictly', () => {
    expect(parseNumber('0.9')).toBe(0.9);
    expect(parseNumber('10')).toBe(10);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('1e2')).toBe(100);
    for (const bad of ['', 'abc', '1.5x', 'NaN', 'Infinity', '0x10', '1,5']) {
      expect(() => parseNumber(bad)).toThrow(InvalidArgumentError);
    }
  });

  it('insists on whole numbers where the wire says integer', () => {
    expect(parseNumber('20', { integer: true })).toBe(20);
    expect(() => parseNumber('2.5', { integer: true })).toThrow('Expected a whole number.');
    expect(() => parseNumber('1e3', { integer: true })).toThrow('Expected a whole number.');
    expect(() => parseNumber('99999999999999999999', { integer: true })).toThrow('out of range');
  });

  it('checks target_util: above 0 and at most 1.0', () => {
    const rule = { greaterThan: 0, max: 1.0 };
    expect(parseNumber('1.0', rule)).toBe(1);
    expect(parseNumber('0.01', rule)).toBe(0.01);
    expect(() => parseNumber('1.01', rule)).toThrow('Must be at most 1.0.');
    expect(() => parseNumber('0', rule)).toThrow('Must be greater than 0.');
    expect(() => parseNumber('-1', { integer: true, min: 0 })).toThrow('Must be at least 0.');
  });

  it('reads true/false words and choices', () => {
    expect(['t', 'TRUE', 'True'].map(parseBooleanWord)).toEqual([true, true, true]);
    expect(['f', 'false', 'FALSE'].map(parseBooleanWord)).toEqual([false, false, false]);
    expect(() => parseBooleanWord('yes')).toThrow('Expected true or false.');
    expect(choiceOption(['table', 'tree'])('tree')).toBe('tree');
    expect(() => choiceOption(['table', 'tree'])('list')).toThrow('Allowed: table, tree.');
  });
});
