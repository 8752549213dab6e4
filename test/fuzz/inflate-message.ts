/**
 * The payload of a permessage-deflate message (RFC 7692 section 7.2.2), inflated fragment
 * by fragment as a server reads it: each fragment's bytes into a raw inflate stream, the
 * empty stored block `00 00 ff ff` after the last; `invalid` as soon as zlib refuses the
 * data, `too big` once the message passes the limit. As ws does, a fragment is checked
 * against the limit while it inflates, the message only once a fragment is done (so
 * bad data later in an oversized fragment is `invalid`), and a stream that ended (a
 * final deflate block) is replaced by a new one for the next fragment.
 */
import { createInflateRaw, type InflateRaw } from 'node:zlib';

const TRAILER = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** Why a fragment stopped the message. */
export type InflateProblem = 'invalid' | 'too big';

/** Inflates one message's fragments in order. */
export class MessageInflater {
  private inflate: InflateRaw | undefined;
  private readonly chunks: Buffer[] = [];
  /** Inflated bytes of the fragments done. */
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The message so far. */
  get message(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** Inflates one fragment (`fin`: the last); resolves with the problem, or undefined. */
  push(fragment: Buffer, fin: boolean): Promise<InflateProblem | undefined> {
    const inflate = (this.inflate ??= createInflateRaw());
    return new Promise((resolve) => {
      let fragmentSize = 0;
      let settled = false;
      const settle = (problem: InflateProblem | undefined): void => {
        if (settled) return;
        settled = true;
        inflate.off('data', onData);
        inflate.off('error', onError);
        if (problem !== undefined || fin || inflate.readableEnded) {
          inflate.close();
          this.inflate = undefined;
        }
        resolve(problem);
      };
      const onData = (chunk: Buffer): void => {
        fragmentSize += chunk.length;
        if (fragmentSize > this.maxBytes) settle('too big');
        else this.chunks.push(chunk);
      };
      const onError = (): void => settle('invalid');
      inflate.on('data', onData);
      inflate.on('error', onError);
      inflate.write(fragment);
      if (fin) inflate.write(TRAILER);
      inflate.flush(() => {
        this.size += fragmentSize;
        settle(this.size > this.maxBytes ? 'too big' : undefined);
      });
    });
  }

  /** Frees the stream of a message that was never finished. */
  dispose(): void {
    this.inflate?.close();
    this.inflate = undefined;
  }
}
