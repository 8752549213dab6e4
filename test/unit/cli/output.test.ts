/** The CLI's output that never holds the program: dropped log lines, a bounded flush, held-back logs. */
import { EventEmitter } from 'node:events';
import { droppingWriter, flushOutput, type OutputStream } from '../../../src/cli/output';
import { logGate } from '../../../src/cli/ready';

/** A stream whose reader the test plays: written text waits until `read()`. */
class FakeStream extends EventEmitter implements OutputStream {
  waiting = '';
  written: string[] = [];
  get writableLength(): number {
    return this.waiting.length;
  }
  write(text: string): boolean {
    this.waiting += text;
    this.written.push(text);
    return this.waiting.length < 16;
  }
  /** The reader takes `bytes` (everything by default); `drain` once nothing waits. */
  read(bytes = this.waiting.length): void {
    this.waiting = this.waiting.slice(bytes);
    if (this.waiting.length === 0) this.emit('drain');
  }
}

describe('droppingWriter', () => {
  it('writes while at most the limit waits, then drops and says how many once it drains', () => {
    const stream = new FakeStream();
    const write = droppingWriter(stream, 10);
    write('0123456789\n'); // 11 bytes wait now: more than 10
    write('dropped 1\n');
    write('dropped 2\n');
    expect(stream.written).toEqual(['0123456789\n']);
    stream.read();
    expect(stream.written[1]).toBe('bwc-emu: WARN 2 log line(s) dropped: the output was not read fast enough\n');
    stream.read();
    write('next\n');
    expect(stream.written[2]).toBe('next\n');
  });

  it('says it in a JSON log line when the dropped lines were JSON', () => {
    const stream = new FakeStream();
    const write = droppingWriter(stream, 0);
    write('{"msg":"a"}\n');
    write('{"msg":"b"}\n');
    stream.read();
    const notice = JSON.parse(stream.written[1]) as { level: number; msg: string; dropped: number };
    expect(notice).toMatchObject({ level: 40, dropped: 1 });
    expect(notice.msg).toContain('1 log line(s) dropped');
  });
});

describe('flushOutput', () => {
  it('resolves at once when nothing waits, and when a reader stops reading', async () => {
    const stream = new FakeStream();
    await flushOutput(50, [stream]);
    stream.write('never read');
    const started = Date.now();
    await flushOutput(50, [stream]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('waits for a reader that keeps reading', async () => {
    const stream = new FakeStream();
    stream.write('x'.repeat(10));
    const reading = setInterval(() => stream.read(1), 10);
    await flushOutput(50, [stream]);
    clearInterval(reading);
    expect(stream.writableLength).toBe(0);
  });
});

describe('logGate', () => {
  it('holds lines until opened, then writes them in order and lets the rest through', () => {
    const lines: string[] = [];
    const gate = logGate((line) => lines.push(line));
    gate.write('a\n');
    gate.write('b\n');
    expect(lines).toEqual([]);
    gate.open();
    gate.write('c\n');
    expect(lines).toEqual(['a\n', 'b\n', 'c\n']);
  });
});
