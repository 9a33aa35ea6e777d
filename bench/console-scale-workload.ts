// The console benchmark's scale workloads (issue 16: "pages stay usable with 10,000 sessions and sessions of 50,000
// messages"), made from the real capture's own messages: many short sessions (each opened with initialize and making
// tool calls), and one long session of tool calls. JSONL capture records; times nothing.
import { readFileSync } from 'node:fs';
import { captureFile } from './store-workload.js';

interface CaptureRecord {
  seq: number;
  ts: string;
  dir: string;
  server: string;
  session: string;
  msg: { id?: number | string; method?: string; params?: { name?: string } };
}

const start = Date.parse('2026-11-01T00:00:00.000Z');

function captureRecords(): CaptureRecord[] {
  return readFileSync(captureFile, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as CaptureRecord);
}

/** The capture's opening (initialize, its answer, initialized) and its first `tools/call` of `echo` with its answer. */
function openingAndEcho(records: CaptureRecord[]): {
  opening: CaptureRecord[];
  call: CaptureRecord;
  answer: CaptureRecord;
} {
  const callIndex = records.findIndex((r) => r.msg.method === 'tools/call' && r.msg.params?.name === 'echo');
  const call = records[callIndex]!;
  const answer = records.find(
    (r, i) => i > callIndex && r.dir !== call.dir && r.msg.id === call.msg.id && r.msg.method === undefined,
  );
  if (!answer) throw new Error('the capture has no answered echo call');
  return { opening: records.slice(0, 3), call, answer };
}

class CaptureWriter {
  private readonly lines: string[] = [];
  private clockMs = start;

  add(template: CaptureRecord, session: string, seq: number, server: string, id?: number): void {
    this.clockMs += 11;
    const msg = id === undefined ? template.msg : { ...template.msg, id };
    this.lines.push(
      JSON.stringify({ ...template, seq, ts: new Date(this.clockMs).toISOString(), server, session, msg }),
    );
  }

  text(): string {
    return this.lines.join('\n') + '\n';
  }
}

/** `sessions` sessions of `1 + calls` exchanges each (initialize, then `calls` echo calls), under 40 server names. */
export function manySessions(sessions: number, calls = 2): { text: string; messages: number; sessions: string[] } {
  const { opening, call, answer } = openingAndEcho(captureRecords());
  const writer = new CaptureWriter();
  const ids: string[] = [];
  let messages = 0;
  for (let s = 0; s < sessions; s++) {
    const session = `scale-${String(s).padStart(6, '0')}`;
    const server = `server-${s % 40}`;
    ids.push(session);
    let seq = 0;
    for (const record of opening) writer.add(record, session, ++seq, server);
    for (let c = 0; c < calls; c++) {
      writer.add(call, session, ++seq, server, 100 + c);
      writer.add(answer, session, ++seq, server, 100 + c);
    }
    messages += seq;
  }
  return { text: writer.text(), messages, sessions: ids };
}

/** One session of about `messages` messages: initialize, then echo calls and their answers. */
export function longSession(messages: number): { text: string; messages: number; session: string } {
  const { opening, call, answer } = openingAndEcho(captureRecords());
  const writer = new CaptureWriter();
  const session = 'scale-long-session';
  let seq = 0;
  for (const record of opening) writer.add(record, session, ++seq, 'everything');
  for (let id = 100; seq < messages; id++) {
    writer.add(call, session, ++seq, 'everything', id);
    writer.add(answer, session, ++seq, 'everything', id);
  }
  return { text: writer.text(), messages: seq, session };
}
