// What a store tells about its own writes: every write it has applied (an ingest, a session removed, an update), with
// the session graphs it touched, to whoever listens (the console's live updates, GET /events). It says only what
// changed, never the data; a listener that throws is dropped, never the write.

export interface StoreChange {
  /** The session graphs the write touched; empty when the store cannot tell (a SPARQL Update). */
  graphs: string[];
}

type StoreChangeListener = (change: StoreChange) => void;

export class StoreChanges {
  private readonly listeners = new Set<StoreChangeListener>();

  /** Calls `listener` after every write from now on; the function returned stops it. */
  listen(listener: StoreChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  get listening(): number {
    return this.listeners.size;
  }

  /** Told by the store once a write is applied (and, for a durable store, on disk). */
  emit(change: StoreChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}

/**
 * The changes of a store whose writes happen in another process (a client of a data directory's owner, a remote
 * store): its size looked at every `pollMs` while someone listens, a change told (with no graphs) when it moved.
 */
export class WatchedSize extends StoreChanges {
  private timer: NodeJS.Timeout | undefined;
  private last: number | undefined;

  constructor(
    private readonly size: () => Promise<number>,
    private readonly pollMs: number,
  ) {
    super();
  }

  override listen(listener: StoreChangeListener): () => void {
    const stop = super.listen(listener);
    if (!this.timer) {
      void this.look();
      this.timer = setInterval(() => void this.look(), this.pollMs).unref();
    }
    return () => {
      stop();
      if (this.listening === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
        this.last = undefined;
      }
    };
  }

  private async look(): Promise<void> {
    try {
      const size = await this.size();
      if (this.last !== undefined && size !== this.last) this.emit({ graphs: [] });
      this.last = size;
    } catch {
      // The store is busy or away for a moment: look again next time.
    }
  }
}
