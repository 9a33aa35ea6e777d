// The bad lines of an input on stderr: the first few, one a line, then one line for the rest ("… and 5,212 more
// malformed lines"), so that a file of the wrong kind or a damaged capture never floods the terminal.
import { failedItemPlace, type FailedItem } from '../lift/convert.js';
import { write } from './command.js';

/** How many bad lines are shown one by one. */
export const shownFailures = 10;

interface FailedLine {
  /** The line as shown: where, and what is wrong. */
  text: string;
  /** Not JSON (or not N-Quads) at all, rather than a message mcp-ld refuses. */
  malformed: boolean;
}

export async function reportFailedLines(stream: NodeJS.WritableStream, failed: readonly FailedLine[]): Promise<void> {
  const shown = failed.slice(0, shownFailures);
  if (shown.length > 0) await write(stream, shown.map((line) => `${line.text}\n`).join(''));
  const rest = failed.slice(shownFailures);
  if (rest.length === 0) return;
  const kind = rest.every((line) => line.malformed) ? 'malformed' : 'failed';
  await write(stream, `… and ${rest.length.toLocaleString('en')} more ${kind} line${rest.length === 1 ? '' : 's'}\n`);
}

/** The lines a conversion failed on, as shown (`line 7: Malformed JSON: …`, after `prefix`). */
export function conversionFailures(failed: readonly FailedItem[], prefix = ''): FailedLine[] {
  return failed.map((item) => ({
    text: `${prefix}${failedItemPlace(item)}: ${item.error.title}: ${item.error.detail}`,
    malformed: item.error.code === 'input.malformed-json',
  }));
}
