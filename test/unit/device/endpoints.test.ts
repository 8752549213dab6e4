import { devicePaths, deviceUrls } from '../../../src/device/endpoints';

describe('device endpoints', () => {
  it('puts every CGI under the CGI prefix and the stream under the stream prefix', () => {
    expect(devicePaths('/axis-cgi', '/vapix')).toEqual({
      featureFlags: '/axis-cgi/featureflag.cgi',
      sessionToken: '/axis-cgi/wssession.cgi',
      apiDiscovery: '/axis-cgi/apidiscovery.cgi',
      basicDeviceInfo: '/axis-cgi/basicdeviceinfo.cgi',
      param: '/axis-cgi/param.cgi',
      eventStream: '/vapix/ws-data-stream',
    });
  });

  it('makes http URLs for the CGIs and a ws URL with sources=events for the stream', () => {
    const urls = deviceUrls('http://127.0.0.1:8080', devicePaths('/svc-cgi', '/svc'));
    expect(urls.base).toBe('http://127.0.0.1:8080');
    expect(urls.featureFlags).toBe('http://127.0.0.1:8080/svc-cgi/featureflag.cgi');
    expect(urls.param).toBe('http://127.0.0.1:8080/svc-cgi/param.cgi');
    expect(urls.eventStream).toBe('ws://127.0.0.1:8080/svc/ws-data-stream?sources=events');
  });

  it('makes wss for an https device and keeps an IPv6 host in brackets', () => {
    const urls = deviceUrls('https://[::1]:8443', devicePaths('/svc-cgi', '/svc'));
    expect(urls.sessionToken).toBe('https://[::1]:8443/svc-cgi/wssession.cgi');
    expect(urls.eventStream).toBe('wss://[::1]:8443/svc/ws-data-stream?sources=events');
  });
});
