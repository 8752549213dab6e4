/**
 * The OpenAPI document cannot drift from the router: every route the router registers
 * is documented, every documented operation is served (answers neither 404 nor 405),
 * and the document has the shape of an OpenAPI 3.1.0 document.
 */
import request from 'supertest';
import { createLogger } from '../../../src/base/log';
import { controlRouter } from '../../../src/control/control-router';
import { type ControlServer, FakeEmulator, SERIALS, startControl } from './fake-emulator';

interface Operation {
  operationId: string;
  summary: string;
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

let ctl: ControlServer;
let doc: Document;
beforeAll(async () => {
  ctl = await startControl();
  const res = await request(ctl.server).get('/_emu/openapi.json').expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.body as Document;
});
afterAll(() => ctl.close());

/** `METHOD /_emu/path` of every operation in the document. */
function documented(): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** `METHOD /_emu/path` of every route registered on a router (Express paths back in OpenAPI form). */
function registered(fleetRoutes: boolean): string[] {
  const router = controlRouter({
    emulator: new FakeEmulator(),
    state: () => 'ready',
    device: SERIALS[0],
    fleetRoutes,
    token: undefined,
    log: createLogger(),
  });
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  return (router.stack as Layer[]).flatMap(({ route }) => {
    if (!route || route.methods._all) return [];
    const path = `/_emu${route.path.replace(/:(\w+)/g, '{$1}')}`;
    return Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${path}`);
  });
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with a title and version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({
      title: 'bwc-emu control API',
      version: expect.any(String) as string,
      description: expect.any(String) as string,
    });
  });

  it('documents every route the router registers, and nothing else', () => {
    const routes = registered(true);
    expect(routes.length).toBeGreaterThan(20);
    expect([...documented()].sort()).toEqual([...routes].sort());
  });

  it('is the one of the routes served: without fleet routes, no /devices/{serial} paths', async () => {
    const single = await startControl({ fleetRoutes: false });
    try {
      const res = await request(single.server).get('/_emu/openapi.json').expect(200);
      const paths = Object.keys((res.body as Document).paths);
      expect(paths.filter((p) => p.includes('{serial}'))).toEqual([]);
      expect(paths.sort()).toEqual([...new Set(registered(false).map((r) => r.split(' ')[1]))].sort());
    } finally {
      await single.close();
    }
  });

  it('gives every operation an id, a summary, a usual answer and documented refusals', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const operation of Object.values(item)) {
        ids.add(operation.operationId);
        expect(operation.summary).toEqual(expect.any(String));
        const statuses = Object.keys(operation.responses);
        expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
        expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
        if (path.includes('{serial}')) expect(statuses).toContain('404');
        for (const response of Object.values(operation.responses))
          expect(response.description).toEqual(expect.any(String));
      }
    }
    expect(ids.size).toBe(documented().length);
  });

  it('documents the request schemas: the publish body, the journal kinds, the YAML body', () => {
    const publish = doc.paths['/_emu/events'].post as unknown as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(publish.requestBody.content['application/json'].schema.required).toEqual(['topic']);
    const journal = doc.paths['/_emu/journal'].get as unknown as { parameters: { name: string; schema: object }[] };
    const kind = journal.parameters.find((p) => p.name === 'kind');
    expect(JSON.stringify(kind)).toContain('auth-refused');
    const scenario = doc.paths['/_emu/scenario'].put as unknown as { requestBody: { content: object } };
    expect(Object.keys(scenario.requestBody.content).sort()).toEqual([
      'application/json',
      'application/yaml',
      'text/plain',
      'text/yaml',
    ]);
  });

  it('has every documented operation served (not 404, not 405)', async () => {
    const unserved: string[] = [];
    for (const entry of documented()) {
      const [method, path] = entry.split(' ');
      const url = path.replace('{serial}', SERIALS[1]);
      // An event stream never ends: HEAD answers its headers only.
      const stream = doc.paths[path][method.toLowerCase()].responses['200']?.content?.['text/event-stream'];
      const res = stream
        ? await request(ctl.server).head(url)
        : await request(ctl.server)[method.toLowerCase() as 'get'](url);
      if (res.status === 404 || res.status === 405) unserved.push(`${entry}: ${res.status}`);
    }
    expect(unserved).toEqual([]);
  });
});
