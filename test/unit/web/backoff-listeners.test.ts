import { Backoff } from '../../../web/dashboard/backoff';
import { Listeners } from '../../../web/dashboard/listeners';

describe('Backoff (the dashboard trying again)', () => {
  it('waits 1 s, doubling to 30 s, and 1 s again after a success', () => {
    const backoff = new Backoff();
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    backoff.reset();
    expect(backoff.next()).toBe(1000);
  });
});

describe('Listeners (who hears of a change)', () => {
  it('calls each listener; one that throws is reported and the others still hear', () => {
    const errors: unknown[] = [];
    const heard: string[] = [];
    const listeners = new Listeners<string>((err) => errors.push(err));
    listeners.add(() => {
      throw new Error('a panel bug');
    });
    listeners.add((value) => heard.push(value));
    expect(() => listeners.emit('x')).not.toThrow();
    expect(heard).toEqual(['x']);
    expect(errors).toEqual([new Error('a panel bug')]);
  });

  it('stops calling a listener once removed; one added while emitting waits for the next value', () => {
    const heard: string[] = [];
    const listeners = new Listeners<string>();
    const remove = listeners.add((value) => {
      heard.push(`a:${value}`);
      listeners.add((v) => heard.push(`late:${v}`));
    });
    listeners.emit('1');
    remove();
    listeners.emit('2');
    expect(heard).toEqual(['a:1', 'late:2']);
  });
});
