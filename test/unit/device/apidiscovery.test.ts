import { apiList, DOC_LINK_BASE } from '../../../src/device/apidiscovery-cgi';
import { SERVED_APIS } from '../../../src/device/cgi-table';

describe('apiList', () => {
  it('lists every served API once, newest version, sorted by id, each with a doc link', () => {
    expect(apiList(SERVED_APIS)).toEqual([
      { id: 'api-discovery', version: '1.0', name: 'API Discovery Service', docLink: `${DOC_LINK_BASE}api-discovery` },
      {
        id: 'basic-device-info',
        version: '1.3',
        name: 'Basic Device Information',
        docLink: `${DOC_LINK_BASE}basic-device-info`,
      },
      {
        id: 'event-streaming-over-websocket',
        version: '1.0',
        name: 'Event Streaming over WebSocket',
        docLink: `${DOC_LINK_BASE}event-streaming-over-websocket`,
      },
      { id: 'feature-flag', version: '1.0', name: 'Feature Flag Service', docLink: `${DOC_LINK_BASE}feature-flag` },
      { id: 'param-cgi', version: '1.0', name: 'Legacy Parameter Handling', docLink: `${DOC_LINK_BASE}param-cgi` },
    ]);
  });

  it('takes the last listed version, 1.0 for none', () => {
    expect(apiList([{ id: 'x', name: 'X', versions: ['1.0', '1.4'] }])[0].version).toBe('1.4');
    expect(apiList([{ id: 'x', name: 'X', versions: [] }])[0].version).toBe('1.0');
  });
});
