'use strict';
/**
 * A benchmark's child process (a server or a set of clients in a process of its own, so
 * that its memory and its event loop are its own), spoken to over IPC. The child answers
 * with messages that have a `type`, and says `{ type: 'error', message }` when it fails;
 * the parent waits for a message by its type, sends a command and waits for its answer,
 * and closes the child.
 */
const { fork } = require('node:child_process');
const path = require('node:path');

/** How long a child asked to close may take to exit before it is killed. */
const CLOSE_MS = 5000;

/**
 * Forks `script` with `args`. `options` are fork's (stdio by default: stdin ignored, stdout
 * and stderr inherited, IPC), and `name`, what errors call the child (the script's file
 * name by default). Returns:
 *  - `child`: the ChildProcess;
 *  - `next(type, where)`: the next message of `type` (of any type when undefined) that has
 *    the fields of `where` (e.g. `{ side: 'emu' }`), one already received and not yet taken
 *    first. It rejects once the child has failed: sent an 'error' message, exited, or
 *    could not be spawned or sent to; every later wait then rejects at once;
 *  - `ask(message, type, where)`: sends `message` and waits for its answer, as `next`;
 *  - `close(message, answer)`: ends the child: sends `message` (SIGTERM without one), waits
 *    for the `answer` if one is named (its failure ignored), then for the exit, killing the
 *    child with SIGKILL if it has not exited within 5 s. Does nothing once it has exited.
 */
function forkChild(script, args = [], { name = path.basename(script), ...options } = {}) {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...options });
  const received = [];
  const waiting = [];
  let failure;
  const matches = (message, type, where) =>
    (type === undefined || message?.type === type) &&
    Object.entries(where).every(([field, value]) => message?.[field] === value);
  const fail = (err) => {
    failure ??= err;
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };
  child.on('message', (message) => {
    if (message?.type === 'error') return fail(new Error(`${name}: ${message.message}`));
    const index = waiting.findIndex((waiter) => matches(message, waiter.type, waiter.where));
    if (index >= 0) waiting.splice(index, 1)[0].resolve(message);
    else received.push(message);
  });
  child.on('error', fail);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      fail(new Error(`${name} exited (code ${code}, signal ${signal})`));
      resolve();
    }),
  );

  const next = (type, where = {}) => {
    const index = received.findIndex((message) => matches(message, type, where));
    if (index >= 0) return Promise.resolve(received.splice(index, 1)[0]);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => waiting.push({ type, where, resolve, reject }));
  };
  const ask = (message, type, where) => {
    if (!child.connected) return Promise.reject(failure ?? new Error(`${name} is no longer connected`));
    const answer = next(type, where);
    child.send(message);
    return answer;
  };
  const close = async (message, answer) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    if (message === undefined) child.kill();
    else if (answer !== undefined) await ask(message, answer).catch(() => undefined);
    else if (child.connected) child.send(message);
    const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_MS);
    await exited;
    clearTimeout(timer);
  };
  return { child, next, ask, close };
}

module.exports = { forkChild };
