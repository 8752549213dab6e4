/**
 * Under the tests every control API answer is checked against the schema its route declares
 * for its status (src/control/answer-check.ts): a misfit is logged naming the route and answered
 * 500 INTERNAL. Off by default, when nothing turns it on: the answer goes out as the handler made it.
 */
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createLogger } from '../../../src/base/log';
import { answersChecked, CHECK_ANSWERS_ENV } from '../../../src/control/answer-check';
import { ControlError } from '../../../src/control/control-error';
import { FeedHubs } from '../../../src/control/feed-hubs';
import { registerRoutes } from '../../../src/control/register-routes';
import { type ControlRoute, defineRoute, Reply } from '../../../src/control/route';
import { controlRoutes } from '../../../src/control/route-table';
import { realScheduler } from '../../../src/scenario/scheduler';
import { FakeEmulator, SERIALS, startControl } from './fake-emulator';

const Count = z.object({ count: z.number().int() });

/** Routes whose handlers answer what their schemas declare, and others that do not. */
const ROUTES: readonly ControlRoute[] = [
  defineRoute({ method: 'get', path: '/right', summary: 'fits', response: Count, handler: () => ({ count: 1 }) }),
  defineRoute({
    method: 'get',
    path: '/wrong',
    summary: 'a string where the schema says a number',
    response: Count,
    // The handler's type is what the schema says: a wrong answer gets past the compiler only by a cast.
    handler: () => ({ count: 'one' }) as unknown as { count: number },
  }),
  defineRoute({
    method: 'get',
    path: '/extra',
    summary: 'a field the schema does not declare',
    response: Count,
    handler: () => ({ count: 1, secret: 'x' }),
  }),
  defineRoute({
    method: 'get',
    path: '/other',
    summary: 'another status than the declared ones',
    response: Count,
    handler: () => new Reply(202, { count: 1 }),
  }),
  defineRoute({
    method: 'get',
    path: '/refused',
    summary: 'a documented refusal (400), then an undocumented one (418)',
    query: z.object({ status: z.string() }),
    response: Count,
    handler: ({ query }) => {
      throw new ControlError('BAD_REQUEST', 'refused', {}, Number(query.status));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/nothing',
    summary: 'a 204 whose handler returns a value',
    handler: () => ({ count: 1 }) as unknown as undefined,
  }),
];

/** An app serving {@link ROUTES}, and the error lines it logs. */
function serve(checkAnswers?: boolean): { app: express.Express; errors: Record<string, unknown>[] } {
  const errors: Record<string, unknown>[] = [];
  const log = createLogger({
    level: 'error',
    write: (line) => void errors.push(JSON.parse(line) as Record<string, unknown>),
  });
  const router = express.Router();
  registerRoutes(router, ROUTES, {
    emulator: new FakeEmulator(),
    state: () => 'ready',
    device: SERIALS[0],
    log,
    document: () => ({}),
    scheduler: realScheduler,
    feeds: new FeedHubs(),
    ...(checkAnswers === undefined ? {} : { checkAnswers }),
  });
  const app = express();
  app.use('/_emu', router);
  return { app, errors };
}

const INTERNAL = { error: { code: 'INTERNAL', message: 'internal error; see the log' } };

describe('the answer check', () => {
  it('is on under the tests (test/setup/check-answers.js)', () => {
    expect(process.env[CHECK_ANSWERS_ENV]).toBe('1');
    expect(answersChecked()).toBe(true);
  });

  it('lets an answer that fits its schema through', async () => {
    const { app, errors } = serve();
    expect((await request(app).get('/_emu/right').expect(200)).body).toEqual({ count: 1 });
    expect(errors).toEqual([]);
  });

  it('answers 500 INTERNAL to a wrong shape, and logs the route and the issue', async () => {
    const { app, errors } = serve();
    expect((await request(app).get('/_emu/wrong').expect(500)).body).toEqual(INTERNAL);
    expect(errors).toEqual([
      expect.objectContaining({
        msg: 'control API: the answer does not fit its schema',
        route: 'GET /_emu/wrong',
        status: 200,
        problem: expect.stringMatching(/expected number.*\n.*at count/s) as string,
      }),
    ]);
  });

  it('catches a field the schema does not declare', async () => {
    const { app, errors } = serve();
    expect((await request(app).get('/_emu/extra').expect(500)).body).toEqual(INTERNAL);
    expect(errors[0]).toMatchObject({
      route: 'GET /_emu/extra',
      problem: 'secret: a field the schema does not declare',
    });
  });

  it('catches a status the route does not declare', async () => {
    const { app, errors } = serve();
    await request(app).get('/_emu/other').expect(500);
    expect(errors[0]).toMatchObject({ status: 202, problem: 'status 202 is not declared with a JSON answer' });
  });

  it('checks refusals: a documented one goes out, an undocumented status is caught', async () => {
    const { app, errors } = serve();
    const refused = await request(app).get('/_emu/refused?status=400').expect(400);
    expect(refused.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'refused' } });
    await request(app).get('/_emu/refused?status=418').expect(500);
    expect(errors).toEqual([expect.objectContaining({ route: 'GET /_emu/refused', status: 418 })]);
  });

  it("catches a 204 route's handler that returns a value", async () => {
    const { app } = serve();
    expect((await request(app).post('/_emu/nothing').expect(500)).body).toEqual(INTERNAL);
  });

  it('is off by default: without the variable, a wrong answer goes out as it is and nothing is logged', async () => {
    const saved = process.env[CHECK_ANSWERS_ENV];
    delete process.env[CHECK_ANSWERS_ENV];
    try {
      expect(answersChecked()).toBe(false);
      const { app, errors } = serve();
      expect((await request(app).get('/_emu/wrong').expect(200)).body).toEqual({ count: 'one' });
      expect((await request(app).get('/_emu/extra').expect(200)).body).toEqual({ count: 1, secret: 'x' });
      await request(app).post('/_emu/nothing').expect(204);
      expect(errors).toEqual([]);
    } finally {
      process.env[CHECK_ANSWERS_ENV] = saved;
    }
  });

  it('is off when the router is told so, whatever the variable', async () => {
    const { app } = serve(false);
    await request(app).get('/_emu/wrong').expect(200);
  });
});

describe('the real routes under the check', () => {
  it("document the body parsers' 415 (a charset the API does not read): the check let it through", async () => {
    const ctl = await startControl();
    try {
      const res = await request(ctl.server)
        .post('/_emu/events')
        .set('Content-Type', 'application/json; charset=latin1')
        .send('{"topic":"x"}');
      expect({ status: res.status, code: (res.body as { error: { code: string } }).error.code }).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    } finally {
      await ctl.close();
    }
  });
});

describe('the route table', () => {
  it('cannot declare a 200 route without a response schema (a compile error), nor a 204 with one', () => {
    // @ts-expect-error status 200 needs a response schema
    defineRoute({ method: 'get', path: '/x', summary: 'x', status: 200, handler: () => undefined });
    defineRoute({
      method: 'get',
      path: '/x',
      summary: 'x',
      // @ts-expect-error a response schema means status 200
      status: 204,
      response: Count,
      handler: () => ({ count: 1 }),
    });
  });

  it('declares a response schema for every JSON route that answers 200', () => {
    const undeclared = controlRoutes(true)
      .filter((route) => route.kind === 'json' && route.status === 200 && !route.response)
      .map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
  });
});
