// MathSense's own messages (ext/protocol.ts): the status request and the hover colour.
import type { Connection } from 'vscode-languageserver/node';
import { HOVER_MATH_COLOR, STATUS_REQUEST, type HoverMathColorParams, type ServerStatus } from '../../ext/protocol.js';
import type { Session } from '../../session/session.js';

export function registerStatus(c: Connection, s: Session): void {
  c.onRequest(STATUS_REQUEST, (): Promise<ServerStatus> => s.status());
  c.onNotification(HOVER_MATH_COLOR, (p: Partial<HoverMathColorParams> | undefined) => {
    if (typeof p?.color === 'string') s.hoverMathColor(p.color);
  });
}
