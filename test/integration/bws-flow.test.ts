/** The simulated body worn system against the reference destination: the whole flow. */
import { destinationStarter } from '../helpers/destinations';
import { PlanSchema, runBodyWornSystem } from '../../src';

const start = destinationStarter();

describe('runBodyWornSystem against the reference destination', () => {
  it('registers, uploads the default plan and completes every recording', async () => {
    const destination = await start();
    const report = await runBodyWornSystem({ connection: { ...destination.connectionFile() }, concurrency: 2 });
    expect(report.registrationFailures).toEqual([]);
    expect(report.totals).toMatchObject({ recordings: 3, transferred: 3, failed: 0, notTransferred: 0 });
    expect(report.recordings.every((r) => r.warnings.length === 0)).toBe(true);
    const received = destination.recordings();
    expect(received).toHaveLength(3);
    expect(received.every((r) => r.status === 'complete')).toBe(true);
    expect(received.map((r) => r.clips).sort()).toEqual([1, 2, 3]);
  });

  it('reports a 400 as not transferred and re-uploads it as rejected content', async () => {
    const destination = await start();
    const plan = PlanSchema.parse({
      users: [{ id: 'u1', name: 'U' }],
      devices: [{ serial: 'CAM1', name: 'C' }],
      recordings: [{ user: 'u1', device: 'CAM1', 'trigger-on': '1990-01-01T00:00:00Z', 'clip-size': '10KB' }],
    });
    const report = await runBodyWornSystem({ connection: destination.connectionFile(), plan });
    expect(report.recordings[0]).toMatchObject({ status: 'not transferred', request: { method: 'PUT', status: 400 } });
    expect(report.recordings[0].rejectedContent).toMatch(/^RejectedContent_19900101T000000Z_/);
  });
});
