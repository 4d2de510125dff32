import { terminalText } from './terminal-text';

describe('terminalText', () => {
  it('shows escape sequences, bells, line breaks and tabs escaped', () => {
    expect(terminalText('\u001b[31mred\u001b[0m')).toBe('\\x1b[31mred\\x1b[0m');
    expect(terminalText('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
    expect(terminalText('a\nb\r\tc\u007f\u009b')).toBe('a\\nb\\r\\tc\\x7f\\x9b');
  });

  it('shows bidirectional controls escaped, and every other character as it is', () => {
    expect(terminalText('invoice \u202egnp.exe')).toBe('invoice \\u202egnp.exe');
    expect(terminalText('Déjà vu 日本 😀 "quoted" \\ back')).toBe(
      'Déjà vu 日本 😀 "quoted" \\ back',
    );
  });
});

describe('tables and trees show the api text through it', () => {
  it('a label with a line break or an escape stays in its row', async () => {
    const { renderTable, renderKeyValues } = await import('./table');
    const { renderTree } = await import('./tree');
    const table = renderTable([{ header: 'label' }], [['a\nb'], ['\u001b[31mred']]);
    expect(table).toBe('label\na\\nb\n\\x1b[31mred\n');
    expect(renderKeyValues([['full_name', 'x\ry']])).toBe('full_name  x\\ry\n');
    expect(renderTree([{ label: 'root\u0007', children: [{ label: 'child\nmore' }] }])).toBe(
      'root\\x07\n└─ child\\nmore\n',
    );
  });
});
