import { accessSync, constants, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CommandContext } from '../context';
import { dirname, resolve } from 'node:path';
import { CliFailure, UsageError } from '../errors';
import { Io } from '../io';

export type ExportFormat = 'csv' | 'ndjson';

/** How often the progress line is redrawn at most. */
const PROGRESS_INTERVAL_MS = 100;
const BAR_WIDTH = 30;

/**
 * Counts the records of the export as it passes: NDJSON lines, or CSV records (a line
 * break inside a quoted field does not end one). The CSV header is not a record.
 */
export class RecordCounter extends Transform {
  records = 0;
  bytes = 0;
  private quoted = false;
  private headerSeen: boolean;

  constructor(format: ExportFormat) {
    super();
    this.headerSeen = format === 'ndjson';
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x22) this.quoted = !this.quoted;
      else if (byte === 0x0a && !this.quoted) {
        if (this.headerSeen) this.records++;
        else this.headerSeen = true;
      }
    }
    done(null, chunk);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `[#########.........]  31%  700,000 of 2,273,598 rows  49.1 MB` */
export function progressLine(records: number, expected: number | null, bytes: number): string {
  const rows = records.toLocaleString('en-US');
  if (!expected) return `${rows} rows  ${megabytes(bytes)}`;
  const share = Math.min(1, records / expected);
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  return `${bar} ${percent}  ${rows} of ${expected.toLocaleString('en-US')} rows  ${megabytes(bytes)}`;
}

function startProgress(io: Io, counter: RecordCounter, expected: number | null): () => void {
  if (!io.stderr.isTTY) return () => undefined;
  let last = 0;
  const draw = () => io.stderr.write(`\r${progressLine(counter.records, expected, counter.bytes)}`);
  const onData = () => {
    const now = io.now().getTime();
    if (now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    draw();
  };
  counter.on('data', onData);
  return () => {
    counter.off('data', onData);
    draw();
    io.stderr.write('\n');
  };
}

/**
 * Where the export will go, checked before anything is requested (a year of data must not
 * download only to fail at the end): its folder must exist and be writable, and FILE
 * must not be a folder. An existing file is replaced once the new one is complete.
 */
export function exportDestinationProblem(file: string): string | null {
  const target = resolve(file);
  const folder = dirname(target);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    return `--export ${file}: folder ${folder} does not exist`;
  }
  if (existsSync(target) && statSync(target).isDirectory()) {
    return `--export ${file} is a folder; give a file name`;
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `--export ${file}: folder ${folder} is not writable`;
  }
  return null;
}

/**
 * `show invoices --charges --export FILE`: streams GET /api/v0/charges/export/ into FILE.
 * The body goes to FILE.part first and is renamed once complete, so a download that stops
 * (the connection lost, the body cut short, Ctrl-C) never leaves a file that looks whole,
 * nor the part file.
 */
export async function exportCharges(
  context: CommandContext,
  selectFilters: unknown,
  file: string,
  format: ExportFormat,
  tz?: string,
): Promise<void> {
  const problem = exportDestinationProblem(file);
  if (problem) throw new UsageError(problem);
  const response = await context.api().stream('/api/v0/charges/export/', {
    params: { query: { select_filters: selectFilters, format, ...(tz ? { tz } : {}) } },
  });
  if (!response.body) throw new CliFailure('the export answered without a body');
  const expectedHeader = Number(response.headers.get('x-charge-lines'));
  const expected = Number.isSafeInteger(expectedHeader) ? expectedHeader : null;
  const partial = `${file}.part`;
  const counter = new RecordCounter(format);
  const stopProgress = startProgress(context.io, counter, expected);
  const stopWatching = context.io.onInterrupt(() => {
    rmSync(partial, { force: true });
    context.io.stderr.write(`\nInterrupted: the export stopped; ${file} was not written\n`);
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial),
    );
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliFailure(`the export stopped before its end (${reason}); ${file} was not written`);
  } finally {
    stopWatching();
    stopProgress();
  }
  const summary = { file, format, rows: counter.records, bytes: counter.bytes };
  if (context.raw) context.printJson(summary);
  else
    context.note(
      `Wrote ${counter.records.toLocaleString('en-US')} rows (${megabytes(counter.bytes)}) to ${file}`,
    );
}
