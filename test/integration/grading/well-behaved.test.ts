/**
 * One well-behaved client session over real sockets, start to end: digest requests that
 * reuse their nonce (nc counting up), a session token fetched right before each connect,
 * one filter per topic, and after the device drops the session a pause, a fresh token, a
 * reconnect and a new configure. The grader must find nothing, even once every window is over.
 */
import { digestAuthorization } from '../../../src';
import type { JournalEntry } from '../../../src/base/journal';
import { notificationOf, openWithToken, type StreamClient } from '../../helpers/event-stream-client';
import { challengesOf, type HttpResult, sendRequest } from '../../helpers/http';
import { type GradingRun, gradingRig, MOTION, PORT } from './grading-rig';

const start = gradingRig();

/**
 * A digest client as the rules want one: keeps the last challenge and answers it with the
 * next nc; only a 401 (a first request, or `stale=true`) makes it take a new challenge.
 */
class DigestClient {
  private challenges: string[] | undefined;
  private nc = 0;
  /** 401 answers received (each one a round trip paid). */
  unauthorized = 0;

  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, body?: string): Promise<HttpResult> {
    const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.challenges) {
        this.nc++;
        headers.Authorization = digestAuthorization(this.challenges, 'root', 'pass', method, path, { nc: this.nc });
      }
      const answer = await sendRequest(this.baseUrl, { method, path, headers, body });
      if (answer.status !== 401) return answer;
      this.unauthorized++;
      this.challenges = challengesOf(answer);
      this.nc = 0;
    }
    throw new Error(`${method} ${path}: still 401 after a fresh challenge`);
  }

  /** A `wssession.cgi` token, fetched now. */
  async token(run: GradingRun): Promise<string> {
    const answer = await this.request('GET', new URL(run.device.urls.sessionToken).pathname);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  /** A JSON-RPC call to a CGI; its `data`. */
  async rpc(path: string, message: Record<string, unknown>): Promise<unknown> {
    const answer = await this.request('POST', path, JSON.stringify(message));
    expect(answer.status).toBe(200);
    const parsed = JSON.parse(answer.body) as { data?: unknown; error?: unknown };
    expect(parsed.error).toBeUndefined();
    return parsed.data;
  }
}

/** Connects with a token fetched right before, configures one filter per topic, reads the Port state. */
async function connectAndConfigure(run: GradingRun, digest: DigestClient): Promise<StreamClient> {
  const client = run.track(await openWithToken(run.device, await digest.token(run)));
  const answer = await client.configure([{ topicFilter: PORT }, { topicFilter: MOTION }]);
  expect(answer.error).toBeUndefined();
  expect(notificationOf(await client.next()).topic).toBe(PORT); // the initial state
  return client;
}

describe('a well-behaved client', () => {
  it('leaves no finding through start-up, a drop by the device and its reconnect', async () => {
    const run = await start();
    const digest = new DigestClient(run.device.url);

    await digest.rpc('/svc-cgi/featureflag.cgi', { apiVersion: '1.0', method: 'listAll' });
    await digest.rpc('/svc-cgi/basicdeviceinfo.cgi', { apiVersion: '1.0', method: 'getAllProperties' });
    run.advance(500);
    const first = await connectAndConfigure(run, digest);

    run.advance(5000);
    await run.device.fault('drop', {});
    await first.waitForClose();

    run.advance(2000); // the client's back-off
    const second = await connectAndConfigure(run, digest);
    await digest.rpc('/svc-cgi/featureflag.cgi', { apiVersion: '1.0', method: 'listAll' });

    run.advance(70_000); // every rule's window is over
    expect(second.closeInfo).toBeUndefined();

    // The session went as described, so "no finding" means the rules saw a good client.
    const journal = run.emulator.journal();
    const kinds = (kind: JournalEntry['kind']): JournalEntry[] => journal.filter((e) => e.kind === kind);
    expect(digest.unauthorized).toBe(1);
    expect(kinds('auth-refused')).toEqual([expect.objectContaining({ code: 'NO_CREDENTIALS' })]);
    expect(kinds('http').filter((e) => e.kind === 'http' && e.auth === 'digest')).toHaveLength(5);
    expect(kinds('ws-open')).toHaveLength(2);
    expect(kinds('ws-close')).toEqual([expect.objectContaining({ by: 'device' })]);
    expect(kinds('configure')).toEqual([
      expect.objectContaining({ filters: [{ topicFilter: PORT }, { topicFilter: MOTION }], error: undefined }),
      expect.objectContaining({ filters: [{ topicFilter: PORT }, { topicFilter: MOTION }], error: undefined }),
    ]);

    const report = run.emulator.report();
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0 });
  });
});
