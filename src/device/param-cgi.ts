/**
 * Legacy `param.cgi?action=list&group=...`: `root.Group.Key=value` lines as
 * text/plain. Errors are text with HTTP 200, as real devices answer them.
 */
import type { RequestHandler } from 'express';
import { deviceOf } from './device-context';
import { parameterGroups } from './identity';

/** The handler for `GET {cgi-prefix}/param.cgi`. */
export const paramCgi: RequestHandler = (req, res) => {
  const { options, log } = deviceOf(res);
  const groups = parameterGroups(options.identity);
  const reply = (text: string): void => {
    res.status(200).type('text/plain').send(text);
  };
  const action = typeof req.query.action === 'string' ? req.query.action : undefined;
  if (action !== 'list') {
    log.info({ action }, 'param.cgi: unsupported action');
    reply(`# Error: action must be list${action === undefined ? '' : ` (got '${action}')`}\n`);
    return;
  }
  const requested =
    typeof req.query.group === 'string' && req.query.group !== '' ? req.query.group.split(',') : Object.keys(groups);
  const lines: string[] = [];
  for (const raw of requested) {
    const name = raw.trim().replace(/^root\./, '');
    const [groupName, ...rest] = name.split('.');
    const group = Object.hasOwn(groups, groupName) ? groups[groupName] : undefined;
    const subPath = rest.join('.');
    const entries = group
      ? Object.entries(group).filter(([key]) => subPath === '' || key === subPath || key.startsWith(`${subPath}.`))
      : [];
    if (entries.length === 0) {
      log.info({ group: raw }, 'param.cgi: unknown group');
      lines.push(`# Error: Error -1 getting param in group '${raw.trim()}'`);
      continue;
    }
    for (const [key, value] of entries) lines.push(`root.${groupName}.${key}=${value}`);
  }
  reply(`${lines.join('\n')}\n`);
};
