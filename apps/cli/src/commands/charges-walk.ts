import { CommandContext } from '../context';
import { Io } from '../io';
import { columnWidths, renderTableLines } from '../output/table';
import { renderCsvRows } from '../output/csv';
import {
  CSV_HEADER,
  chargesCsvRows,
  chargesTableColumns,
  chargesTableRows,
  ChargeEntry,
  ChargePage,
  renderChargesTree,
  renderFooter,
} from './charges.render';
import { DateWindow } from '../options/date-window';

/** How the walk's entries are printed: the listing's formats, page by page. */
export type WalkFormat = 'table' | 'tree' | 'csv' | 'raw';

/**
 * Prints the pages of `show invoices --all` as they arrive, so the first rows show at once
 * and a reader that stops (`| head`) stops the walk (the next write fails, and a closed
 * pipe ends the client). Each format stays the one a single page would have printed:
 * one table (its columns widen when a later page needs it), one CSV header, one JSON
 * document with every entry (`count` = all of them, `next_token` null).
 */
export class ChargesWalkPrinter {
  private shown = 0;
  private widths: number[] | undefined;
  private readonly out: (text: string) => void;

  constructor(
    private readonly context: CommandContext,
    private readonly format: WalkFormat,
    private readonly verbose: boolean,
  ) {
    this.out = (text) => context.io.stdout.write(text);
  }

  page(entries: readonly ChargeEntry[]): void {
    const first = this.shown === 0;
    if (this.format === 'raw') this.rawEntries(entries, first);
    else if (this.format === 'csv') {
      const rows = chargesCsvRows(entries, this.verbose);
      this.out(renderCsvRows(first ? [CSV_HEADER, ...rows] : rows));
    } else if (this.format === 'tree') this.out(renderChargesTree(entries, this.verbose));
    else this.tableRows(entries);
    this.shown += entries.length;
  }

  /** The end of the listing: what a single page would have ended with. */
  end(total: number, window: DateWindow | undefined): void {
    const footer = renderFooter({ count: this.shown, total, next_token: null }, window);
    if (this.format === 'raw') {
      this.out(this.shown === 0 ? '{\n  "success": true,\n  "results": [' : '\n  ');
      this.out(`],\n  "count": ${this.shown},\n  "total": ${total},\n  "next_token": null\n}\n`);
    } else if (this.format === 'csv') {
      if (this.shown === 0) this.out(renderCsvRows([CSV_HEADER]));
      this.context.note(footer);
    } else {
      if (this.format === 'table' && this.widths === undefined) this.tableRows([]);
      this.out(`\n${footer}`);
    }
  }

  private tableRows(entries: readonly ChargeEntry[]): void {
    const columns = chargesTableColumns(this.verbose);
    const rows = chargesTableRows(entries, this.verbose);
    const header = this.widths === undefined;
    this.widths = columnWidths(columns, rows, this.widths);
    this.out(renderTableLines(columns, rows, this.widths, header));
  }

  /** The document `JSON.stringify(page, null, 2)` would print, written entry by entry. */
  private rawEntries(entries: readonly ChargeEntry[], first: boolean): void {
    entries.forEach((entry, index) => {
      const opening = first && index === 0 ? '{\n  "success": true,\n  "results": [' : ',';
      const text = JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ');
      this.out(`${opening}\n    ${text}`);
    });
  }
}

/**
 * `Fetched N of M` on stderr while more pages follow. On a terminal it is one line
 * redrawn in place, taken away before rows are printed on the same screen and, when the
 * rows go elsewhere, left with the final count; elsewhere (a log, a CI job) it is one
 * plain line per page. A listing that fits one page prints no progress.
 */
export class WalkProgress {
  private drawn = false;

  constructor(private readonly io: Io) {}

  /** Called after each page that has a next one. */
  fetched(shown: number, total: number): void {
    const text = `Fetched ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
    if (!this.io.stderr.isTTY) return this.io.stderr.write(`${text}\n`);
    this.io.stderr.write(`\r\x1b[K${text}`);
    this.drawn = true;
  }

  /** Before rows go to stdout: off the screen they would share with it. */
  beforeOutput(): void {
    if (this.drawn && this.io.stdout.isTTY) {
      this.io.stderr.write('\r\x1b[K');
      this.drawn = false;
    }
  }

  /** At the end of the walk: the final count stays when the rows went elsewhere. */
  done(shown: number, total: number): void {
    if (!this.drawn) return;
    if (this.io.stdout.isTTY) return this.beforeOutput();
    this.fetched(shown, total);
    this.io.stderr.write('\n');
    this.drawn = false;
  }
}

/** Pages of the walk, fetched one after another from `token` until the last one. */
export async function walkCharges(
  context: CommandContext,
  fetchPage: (token: string | undefined) => Promise<ChargePage>,
  printer: ChargesWalkPrinter,
  firstToken: string | undefined,
  window: DateWindow | undefined,
): Promise<void> {
  const progress = new WalkProgress(context.io);
  let token = firstToken;
  let shown = 0;
  let total = 0;
  for (;;) {
    const page = await fetchPage(token);
    total = page.total;
    shown += page.results.length;
    progress.beforeOutput();
    printer.page(page.results);
    if (!page.next_token) break;
    progress.fetched(shown, total);
    token = page.next_token;
  }
  progress.done(shown, total);
  printer.end(total, window);
}
