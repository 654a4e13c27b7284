import { liveSessions, rolesOfUsers } from '../auth';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { HubChange, RealtimeHub } from './hub';
import type { OpenStream } from './streams';

const watched = new WeakSet<RealtimeHub>();

/**
 * A stream lives as long as the session it was opened with (docs/rules.md#screens). When a
 * session or an account changes anywhere (sign-out, a password change that revokes sessions, a
 * role given or taken, an account removed) or the listening connection comes back after a gap,
 * the streams concerned hold their events back while their sessions and roles are read again:
 * a stream whose session is gone is closed (`session_ended`), one whose roles changed is closed
 * for the browser to reconnect with its current identity (`session_changed`), and after a gap
 * the others are told to read their data again. Events published after the change are never
 * sent to a stream it ends: the change's notice arrives first, on the same connection.
 *
 * Watches a hub's streams once, however many apps serve them.
 */
export function watchSessions(hub: RealtimeHub, db: Db, logger: Logger): void {
  if (watched.has(hub)) return;
  watched.add(hub);
  const registry = hub.streams;

  const recheck = async (streams: OpenStream[], gap: boolean) => {
    const [sessions, roles] = await Promise.all([
      liveSessions(db, [...new Set(streams.map((s) => s.token))]),
      rolesOfUsers(db, [...new Set(streams.map((s) => s.user))]),
    ]);
    for (const s of streams) {
      if (sessions.get(s.token) !== s.user) registry.close(s, 'session_ended');
      else if ((roles.get(s.user) ?? []).join(',') !== [...s.roles].sort().join(',')) registry.close(s, 'session_changed');
      else if (gap) s.handle.resync();
    }
  };

  hub.watch((change: HubChange) => {
    const streams = change.kind === 'session' ? registry.list({ token: change.token }) : change.kind === 'user' ? registry.list({ user: change.userId }) : registry.list();
    if (!streams.length) return;
    const releases = streams.map((s) => s.handle.hold());
    recheck(streams, change.kind === 'gap')
      .catch((err: unknown) => {
        // Unconfirmed is not confirmed: the browsers connect again and are checked afresh.
        logger.warn({ err }, 'live streams: sessions could not be checked again');
        for (const s of streams) registry.close(s, 'session_changed');
      })
      .finally(() => {
        for (const release of releases) release();
      });
  });
}
