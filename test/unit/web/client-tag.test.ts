import { clientVia } from '../../../src/base/client-tag';
import { tagged } from '../../../web/dashboard/http';
import { withPageLocation } from './page-location';

withPageLocation();

describe("the dashboard's tag on its requests", () => {
  it('is the header and value the device takes for the dashboard (the page keeps its own copy: it cannot load CommonJS)', async () => {
    const fetched = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    try {
      await tagged('/dashboard/device.json', { headers: { Accept: 'application/json' } });
      // The request's headers as Node hands them to the device: names in lower case.
      const headers = Object.fromEntries(new Headers(fetched.mock.calls[0][1]?.headers).entries());
      expect(headers.accept).toBe('application/json');
      expect(clientVia(headers)).toBe('dashboard');
    } finally {
      fetched.mockRestore();
    }
  });
});
