// `mcp-ld repair`: repairs the damaged journal of a data directory (src/store/journal-repair.ts) and says what it kept,
// what it set aside and where, and which sessions survived. Exits 0 when repaired or when there was nothing to repair.
import { readDataDirectory } from '../../core/config.js';
import { repairJournal, sessionsSetAside } from '../../store/journal-repair.js';
import { listSessions } from '../../store/journal-sessions.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { dataOption } from '../store-options.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const options = {
  data: { ...dataOption, description: 'the data directory whose journal to repair' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const repairCommand: Command = {
  name: 'repair',
  summary: 'repair a damaged journal: keep every write that reads whole, copy the rest aside',
  usage: 'mcp-ld repair --data DIR',
  options,
  examples: ['mcp-ld repair --data ./graph'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const dataDir = readDataDirectory(values);
    if (!dataDir) throw new UsageError('name the data directory to repair: --data DIR (or MCPLD_DATA)');
    const report = await repairJournal(dataDir);
    const lines: string[] = [];
    if (!report.repaired) {
      lines.push(`${report.journal} reads whole (${plural(report.kept.writes, 'write')}): nothing to repair`);
    } else {
      const setAside = report.setAside.reduce((sum, part) => sum + part.bytes, 0);
      lines.push(
        `repaired ${report.journal}: kept ${plural(report.kept.writes, 'write')} (${report.kept.bytes} bytes) that read whole`,
      );
      lines.push(`set aside ${setAside} bytes in ${report.damagedFile}, one region after the other:`);
      for (const part of report.setAside) {
        lines.push(
          `  byte ${part.offset} of the old journal, ${part.bytes} bytes: ${part.reason}${part.sessions.length > 0 ? ` (its bytes name ${listSessions(part.sessions)})` : ''}`,
        );
      }
      lines.push(
        `sessions that may have lost writes: ${listSessions(sessionsSetAside(report), 'none that the bytes set aside name', 20)}`,
      );
    }
    if (!report.stillDamaged) lines.push(`sessions in ${dataDir}: ${listSessions(report.sessions, 'none', 20)}`);
    await write(io.stdout, lines.join('\n') + '\n');
    if (report.stillDamaged) {
      await write(
        io.stderr,
        `mcp-ld repair: the data directory still does not open: ${report.stillDamaged.title}: ${report.stillDamaged.detail}\n`,
      );
      return 1;
    }
    return 0;
  },
};
