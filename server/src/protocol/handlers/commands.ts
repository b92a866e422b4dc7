import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { CommandError, executeCommand, type CommandResult } from '../../features/commands.js';
import { emptyResponse } from '../../features/equations/relatedEquations.js';
import type { Session } from '../../session/session.js';

export function registerCommands(c: Connection, s: Session): void {
  c.onExecuteCommand((p) => s.guardAsync<CommandResult>('executeCommand', emptyResponse('internal error (see the server log)'), async () => {
    try {
      return await executeCommand(s, p.command, p.arguments);
    } catch (e) {
      if (e instanceof CommandError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      throw e;
    }
  }));
}
