/**
 * The client app under test: it logs in to a camera, opens its event stream with a session
 * token and calls back on every motion alarm. A real app would do more; this is enough to
 * show how bwc-emu tests one.
 */
import WebSocket from 'ws';

/** Where the camera is and how to log in. */
export interface Camera {
  /** `http://host:port` */
  url: string;
  user: string;
  password: string;
  cgiPrefix?: string;
  streamPrefix?: string;
}

/** A running watch. */
export interface MotionWatch {
  /** Resolves once the camera accepted the subscription. */
  ready: Promise<void>;
  stop(): void;
}

const MOTION = 'tns1:VideoSource/MotionAlarm';

/** Watches `camera` for motion; `onMotion` gets `true` when motion starts and `false` when it stops. */
export function watchMotion(camera: Camera, onMotion: (active: boolean) => void): MotionWatch {
  let socket: WebSocket | undefined;
  const ready = (async () => {
    const basic = Buffer.from(`${camera.user}:${camera.password}`).toString('base64');
    const answer = await fetch(`${camera.url}${camera.cgiPrefix ?? '/svc-cgi'}/wssession.cgi`, {
      headers: { Authorization: `Basic ${basic}` },
    });
    if (answer.status !== 200) throw new Error(`session token refused: ${answer.status}`);
    const token = await answer.text();
    const ws = new WebSocket(
      `${camera.url.replace(/^http/, 'ws')}${camera.streamPrefix ?? '/svc'}/ws-data-stream?sources=events&wssession=${token}`,
    );
    socket = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        ws.send(
          JSON.stringify({
            apiVersion: '1.0',
            method: 'events:configure',
            params: { eventFilterList: [{ topicFilter: MOTION }] },
          }),
        );
      });
      ws.on('message', (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as {
          method?: string;
          data?: unknown;
          error?: { message: string };
          params?: { notification: { topic: string; message: { data: { State?: string } } } };
        };
        if (message.error) reject(new Error(message.error.message));
        else if (message.method === 'events:configure' || message.data !== undefined) resolve();
        if (message.method === 'events:notify' && message.params?.notification.topic === MOTION)
          onMotion(message.params.notification.message.data.State === '1');
      });
      ws.once('error', reject);
    });
  })();
  return { ready, stop: () => socket?.close() };
}
