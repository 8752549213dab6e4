/**
 * The dashboard route's gate: every device request passes it, so a request for anything but
 * the dashboard goes on at once, synchronously, with no promise made for it.
 */
import type { NextFunction, Request, Response } from 'express';
import { dashboardRoute } from '../../../src/device/dashboard-route';

describe('dashboardRoute', () => {
  it.each([
    '/axis-cgi/featureflag.cgi',
    '/svc/ws-data-stream',
    '/dashboard',
    '/dashboard/nope.txt',
    '//dashboard/main.js',
  ])('hands %s on at once, returning nothing', (path) => {
    const next = jest.fn();
    const res = {} as Response;
    const returned: unknown = dashboardRoute({ path } as Request, res, next as NextFunction);
    expect(returned).toBeUndefined();
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });
});
