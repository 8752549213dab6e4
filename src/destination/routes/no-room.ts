/**
 * Writes when the data directory has no room (full disk, used-up disk quota, read-only
 * file system): 507 with Swift's status text and the reason. While the store is
 * read-only a write is refused before its body is read; a write that runs into a full
 * disk is answered 507 too, and makes the store read-only.
 */
import type { Request, Response } from 'express';
import type { DestinationContext } from '../destination-context';
import { noRoomMessage } from '../store/disk-room';
import { sendError } from './swift-response';

/**
 * Before a write: false when it may go ahead; true when the store is read-only and a
 * probe found no room either, and the request was answered 507.
 */
export async function refusedForNoRoom(ctx: DestinationContext, req: Request, res: Response): Promise<boolean> {
  if (await ctx.store.room.ready()) return false;
  const state = ctx.store.room.state;
  const message = state.mode === 'read-only' ? state.message : noRoomMessage('ENOSPC');
  ctx.log.info(
    { method: req.method, path: req.originalUrl, reason: state.mode === 'read-only' ? state.reason : undefined },
    'write refused: the destination is read-only (no room in the data directory)',
  );
  sendError(req, res, 507, message);
  return true;
}

/** After a write failed with `err`: true when it was for lack of room and was answered 507; false otherwise. */
export function answeredNoRoom(ctx: DestinationContext, req: Request, res: Response, err: unknown): boolean {
  const reason = ctx.store.room.noted(err);
  if (reason === undefined) return false;
  ctx.log.warn(
    { method: req.method, path: req.originalUrl, reason, err: (err as Error).message },
    'write failed: no room in the data directory',
  );
  sendError(req, res, 507, noRoomMessage(reason));
  return true;
}
