// What `mcp-ld tap` and `mcp-ld proxy` share: a recorder writing the capture file and delivering to the store the
// flags name (with a spool on disk for when it is unavailable), and the flush at the end.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { McpLdError } from '../core/problem.js';
import {
  ConfigError,
  readStoreConfig,
  readTapConfig,
  storeVariables,
  tapVariables,
  type EnvironmentVariable,
  type StoreConfig,
} from '../core/config.js';
import type { OptionSpecs } from './command.js';
import { spoolOption, storeOptions } from './store-options.js';
import { loadSchema } from '../schema/index.js';
import { Lifter } from '../lift/lifter.js';
import { openStore } from '../store/open-store.js';
import { storeClosed } from '../store/store-errors.js';
import type { QuadStore } from '../store/quad-store.js';
import { BatchRefused, DeliveryQueue, badInputStatuses, spoolFileFor, type DeliverySink } from '../tap/delivery.js';
import { Recorder } from '../tap/recorder.js';
import { BridgeSink } from '../tap/bridge-sink.js';

export const recordingOptions = {
  ...storeOptions,
  bridge: {
    type: 'string',
    value: 'URL',
    description: 'a running mcp-ld serve to send the records to (it lifts them; its write token in MCPLD_WRITE_TOKEN)',
  },
  capture: {
    type: 'string',
    value: 'FILE.jsonl',
    description: 'also write every record to this capture file (mcp-ld ingest takes it later)',
  },
  spool: spoolOption,
  server: {
    type: 'string',
    value: 'NAME',
    description: "the server's name in every record (default: the name it gives itself, else what the command runs)",
  },
} as const satisfies OptionSpecs;

/** What a recording command reads from the environment besides its options. */
export const recordingVariables: readonly EnvironmentVariable[] = [...storeVariables, ...tapVariables];

interface RecordingFlags {
  data?: string | undefined;
  store?: string | undefined;
  bridge?: string | undefined;
  capture?: string | undefined;
  spool?: string | undefined;
  /** The server's name in every record (else the lifter names it by its serverInfo). */
  server?: string | undefined;
}

interface RecordingOptions {
  /** The server's name where neither --server nor its first answer names it: what the tap ran, the proxy's target. */
  fallbackServer: string;
}

interface Recording {
  recorder: Recorder;
  /** Delivers what is left (waiting for the store up to the configured time), closes everything, reports. */
  finish(): Promise<void>;
}

/** A store opened on first use and again after a failed open (a data directory in use by another process): until it
 * opens, deliveries fail and the queue spools, exactly as when a store goes down. */
class ReopeningSink implements DeliverySink {
  private store: QuadStore | undefined;
  /** The open under way: shared by the deliveries that wait for it, and closed with the sink if it ends after it. */
  private opening: Promise<QuadStore> | undefined;
  private readonly closing = new AbortController();

  constructor(
    private readonly config: StoreConfig,
    private readonly say: (text: string) => void,
  ) {}

  async ingest(nquads: string): Promise<{ quads: number }> {
    if (this.closing.signal.aborted) throw storeClosed();
    this.store ??= await (this.opening ??= openStore(this.config, {
      role: 'client',
      onWarning: this.say,
      signal: this.closing.signal,
    }).finally(() => (this.opening = undefined)));
    try {
      return { quads: (await this.store.ingest(nquads)).quads };
    } catch (error) {
      // The store refusing the batch itself (not being unavailable, locked or full) would refuse it on every retry.
      if (error instanceof McpLdError && badInputStatuses.has(error.status)) throw new BatchRefused(error.message);
      throw error;
    }
  }

  /** Closes the store, and gives up an open still under way: nothing this sink opened outlives it (a tap whose
   *  server has exited would otherwise wait on a connection to the store's owner for good). */
  async close(): Promise<void> {
    this.closing.abort();
    const opened = await this.opening?.catch(() => undefined);
    if (opened !== undefined && opened !== this.store) await opened.close();
    await this.store?.close();
  }
}

export async function openRecording(
  flags: RecordingFlags,
  options: RecordingOptions,
  say: (text: string) => void,
): Promise<Recording> {
  const config = readStoreConfig({ data: flags.data, store: flags.store });
  const tapConfig = readTapConfig({ spool: flags.spool });
  if (flags.bridge && (config.dataDir || config.storeUrl))
    throw new ConfigError('choose one sink: --bridge, --data or --store');
  let sink: (DeliverySink & { close?(): Promise<void> }) | undefined;
  let target: string | undefined;
  if (flags.bridge) {
    let bridge: URL;
    try {
      bridge = new URL(flags.bridge);
    } catch {
      throw new ConfigError(`--bridge is not a URL: ${flags.bridge}`);
    }
    sink = new BridgeSink(bridge, tapConfig.bridgeToken);
    target = bridge.origin;
  } else if (config.dataDir || config.storeUrl) {
    sink = new ReopeningSink(config, say);
    target = config.storeUrl ?? path.resolve(config.dataDir!);
  } else if (!flags.capture) {
    say('no --data, --store, --bridge or --capture: the traffic is relayed but not recorded anywhere');
  }
  let delivery: DeliveryQueue | undefined;
  let spoolFile: string | undefined;
  if (sink && target) {
    mkdirSync(tapConfig.spoolDir, { recursive: true });
    spoolFile = spoolFileFor(tapConfig.spoolDir, target);
    delivery = new DeliveryQueue(sink, spoolFile, {
      down: (error, spool) =>
        say(
          `${flags.bridge ? 'the service' : 'the store'} is unavailable (${error.message}); recording continues into ${spool}`,
        ),
      up: () => say(`${flags.bridge ? 'the service' : 'the store'} is back; spooled records delivered`),
      quarantined: (reason, file) =>
        say(`a batch was refused and set aside in ${file} (the batches behind it go on): ${reason}`),
    });
    if (delivery.earlier > 0)
      say(`delivering ${delivery.earlier} batch(es) (${delivery.pendingRecords} records) spooled by an earlier run`);
  }
  // A bridge sends the records themselves: the service lifts them.
  const recorder = new Recorder(flags.bridge ? undefined : new Lifter(loadSchema()), delivery, flags.capture, {
    ...(flags.server !== undefined ? { server: flags.server } : {}),
    fallbackServer: options.fallbackServer,
  });
  return {
    recorder,
    async finish() {
      await recorder.finish();
      let delivered = '';
      if (delivery) {
        const left = await delivery.flush(tapConfig.flushTimeoutMs);
        if (left > 0)
          say(`${left} batch(es) could not be delivered yet; they are kept in ${spoolFile} and sent by the next run`);
        const { stored, quarantined } = delivery.tally;
        delivered = `; ${stored.records} records stored (${stored.quads} quads), ${delivery.pendingRecords} kept in the spool, ${quarantined} refused and set aside`;
      }
      await sink?.close?.();
      const { messages, quads, nonJson, keptRaw, notMcp, unrecorded } = recorder.counts;
      // A bridge sends records, which the service lifts: the quads it stored are in the delivery tally.
      say(
        `${messages} messages recorded${flags.bridge ? '' : ` (${quads} quads)`}${nonJson ? `, ${nonJson} non-JSON lines` : ''}${keptRaw ? `, ${keptRaw} lines kept as raw lines (not UTF-8, or JSON mcp-ld cannot keep exactly as a message)` : ''}${notMcp ? `, ${notMcp} non-MCP messages` : ''}${unrecorded ? `, ${unrecorded} relayed but not recorded (a recorder fault)` : ''}${delivered}`,
      );
    },
  };
}
