// `mcp-ld tap [sink] [--capture FILE] [--session-name NAME] [--server NAME] -- <server command> [args…]`: put mcp-ld in
// front of
// an MCP server (stdio). The client talks to the server exactly as before; every message is recorded.
import { randomUUID } from 'node:crypto';
import { StdioObserver } from '../../tap/recorder.js';
import { relay } from '../../tap/tap.js';
import { serverNameOfCommand } from '../../tap/server-name.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { openRecording, recordingOptions, recordingVariables } from '../recording.js';
import { sessionProblem } from '../../lift/records.js';

const options = {
  ...recordingOptions,
  'session-name': {
    type: 'string',
    value: 'NAME',
    description: 'the session the traffic is recorded in (default: a new UUID)',
  },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const tapCommand: Command = {
  name: 'tap',
  summary: 'run an MCP server (stdio) behind a transparent relay that records its traffic',
  usage:
    'mcp-ld tap [--data DIR | --store URL | --bridge http://HOST:PORT] [--capture FILE.jsonl] [--session-name NAME] [--server NAME] [--spool DIR] -- <server command> [args...]',
  options,
  environment: recordingVariables,
  examples: ['mcp-ld tap --data ./graph --capture everything.jsonl -- npx -y @modelcontextprotocol/server-everything'],
  async run(args, io) {
    const split = args.indexOf('--');
    if (split < 0 || split === args.length - 1)
      throw new UsageError(
        'name the server command after --, e.g. mcp-ld tap --data ./graph -- npx -y @modelcontextprotocol/server-everything',
      );
    const { values } = parseOptions(args.slice(0, split), options);
    const [command, ...commandArgs] = args.slice(split + 1) as [string, ...string[]];
    const say = (text: string) => void write(io.stderr, `mcp-ld tap: ${text}\n`).catch(() => {});
    const session = values['session-name'] ?? randomUUID();
    const problem = sessionProblem(session);
    if (problem) throw new UsageError(`--session-name ${problem}`);
    const recording = await openRecording(values, { fallbackServer: serverNameOfCommand(command, commandArgs) }, say);
    const code = await relay(
      command,
      commandArgs,
      new StdioObserver(recording.recorder, session),
      { stdin: io.stdin, stdout: io.stdout },
      (error) =>
        say(
          `cannot start ${command}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'command not found' : error.message}`,
        ),
    );
    say(`session ${session}`);
    await recording.finish();
    return code;
  },
};
