import { expandMultiLetterFlags } from './short-flags';

describe('two-letter short flags', () => {
  it('rewrites -ct for the charges commands, wherever the global options are', () => {
    expect(expandMultiLetterFlags(['show', 'invoices', '-c', '-ct', 'i', 'v'])).toEqual([
      'show',
      'invoices',
      '-c',
      '--charge-type',
      'i',
      'v',
    ]);
    expect(
      expandMultiLetterFlags(['--url', 'http://x', 'show', 'invoices-v1', '-ct', 's']),
    ).toEqual(['--url', 'http://x', 'show', 'invoices-v1', '--charge-type', 's']);
  });

  it('maps -id by command: a method id for login, the method to remove for delete', () => {
    expect(expandMultiLetterFlags(['tfa', 'login', '-bc', 'X', '-id', '3'])).toEqual([
      'tfa',
      'login',
      '--backup-code',
      'X',
      '--method-id',
      '3',
    ]);
    expect(expandMultiLetterFlags(['tfa', 'delete', '-id', '3'])).toEqual([
      'tfa',
      'delete',
      '--id-to-delete',
      '3',
    ]);
  });

  it('leaves other commands and anything after -- alone', () => {
    expect(expandMultiLetterFlags(['show', 'user', '-ct'])).toEqual(['show', 'user', '-ct']);
    expect(expandMultiLetterFlags(['tfa', 'login', '--', '-bc'])).toEqual([
      'tfa',
      'login',
      '--',
      '-bc',
    ]);
  });
});
